#include <nlohmann/json.hpp>

#include "io/writers.hpp"

namespace gdp::io {
namespace {

class JsonWriter : public PairWriter {
 public:
  JsonWriter(std::ostream& out, const PairRun& run) : out_(out), run_(run) {}
  void write(const PairResult& r) override {
    const auto& a = r.alignment;
    nlohmann::ordered_json j;
    j["query"] = r.query->id;
    j["target"] = r.target->id;
    j["strand"] = r.reverse_strand ? "-" : "+";  // '-': query coordinates on its reverse complement
    j["mode"] = pairwise::to_string(run_.mode);
    j["score"] = a.score;
    const bool known = !a.empty();
    j["query_start"] = known && a.has_begin ? nlohmann::ordered_json(a.query_begin + 1) : nullptr;
    j["query_end"] = known ? nlohmann::ordered_json(a.query_end) : nullptr;
    j["target_start"] = known && a.has_begin ? nlohmann::ordered_json(a.target_begin + 1) : nullptr;
    j["target_end"] = known ? nlohmann::ordered_json(a.target_end) : nullptr;
    if (known && !a.cigar.empty()) {
      const AlignmentStats s = alignment_stats(r, *run_.scheme);
      j["length"] = s.length;
      j["identical"] = s.identical;
      j["similar"] = s.similar;
      j["gaps"] = s.gaps;
      j["identity"] = s.identity_percent();
      j["cigar"] = pairwise::cigar_string(a.cigar);
    } else {  // the same keys, null: every object of a run has one shape
      for (const char* key : {"length", "identical", "similar", "gaps", "identity", "cigar"}) j[key] = nullptr;
    }
    out_ << j.dump() << '\n';
  }

 private:
  std::ostream& out_;
  const PairRun& run_;
};

}  // namespace

std::unique_ptr<PairWriter> make_json_writer(std::ostream& out, const PairRun& run) {
  return std::make_unique<JsonWriter>(out, run);
}

}  // namespace gdp::io
