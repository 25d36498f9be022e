// gpu-syntenic's JSON lines: one object a pair, with the run's parameters
// and the regions in order (null with --score-only; a block's identity and
// CIGAR are null).
#include <nlohmann/json.hpp>

#include "io/syntenic_formats.hpp"

namespace gdp::io {
namespace {

class JsonWriter : public SyntenicWriter {
 public:
  JsonWriter(std::ostream& out, const SyntenicRun& run) : out_(out), run_(run) {}
  void write(const SyntenicResult& r) override {
    const auto& a = r.alignment;
    nlohmann::ordered_json j;
    j["query"] = r.query.id;
    j["target"] = r.target.id;
    j["query_length"] = r.query.residues.size();
    j["target_length"] = r.target.residues.size();
    j["score"] = a.score;
    j["query_end"] = a.query_end;
    j["target_end"] = a.target_end;
    j["block_penalty"] = run_.block_penalty;
    j["ends"] = syntenic::to_string(run_.ends);
    j["gap_open"] = run_.scheme->gap_open;
    j["gap_extend"] = run_.scheme->gap_extend;
    if (run_.score_only) {
      j["regions"] = nullptr;
    } else {
      j["regions"] = nlohmann::ordered_json::array();
      for (const auto& g : a.regions) j["regions"].push_back(region_json(g));
    }
    out_ << j.dump() << '\n';
  }

 private:
  static nlohmann::ordered_json region_json(const syntenic::Region& g) {
    nlohmann::ordered_json j;
    j["kind"] = g.block ? "block" : "match";
    j["query_start"] = g.query_begin + 1;
    j["query_end"] = g.query_end;
    j["target_start"] = g.target_begin + 1;
    j["target_end"] = g.target_end;
    j["score"] = g.score;
    if (g.block) {
      j["identity"] = nullptr;
      j["cigar"] = nullptr;
    } else {
      j["identity"] = region_stats(g).identity_percent();
      j["cigar"] = pairwise::cigar_string(g.cigar);
    }
    return j;
  }

  std::ostream& out_;
  const SyntenicRun run_;
};

}  // namespace

std::unique_ptr<SyntenicWriter> make_syntenic_json_writer(std::ostream& out, const SyntenicRun& run) {
  return std::make_unique<JsonWriter>(out, run);
}

}  // namespace gdp::io
