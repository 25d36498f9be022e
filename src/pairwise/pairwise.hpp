#pragma once
// gpu-sw's engine: the only header an app includes.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/scoring.hpp"
#include "pairwise/gpu_tuning.hpp"
#include "pairwise/pass_checkpoint.hpp"

namespace gdp {
class Progress;
}

namespace gdp::pairwise {

// A sequence encoded into ranks of a ScoringScheme.
using Residues = std::span<const std::uint8_t>;

enum class Mode { local, global, semiglobal };
Mode parse_mode(std::string_view name);  // throws InputError
std::string_view to_string(Mode m);

// Which implementation computes the matrix. The scalar CPU path is the oracle.
enum class Backend { cpu_scalar, cpu_openmp, gpu };
std::string_view to_string(Backend b);

enum class Op : char { match = '=', mismatch = 'X', insertion = 'I', deletion = 'D' };
struct CigarRun {
  Op op;
  std::int64_t length;
};
using Cigar = std::vector<CigarRun>;
// "5=1X2I3=" (empty string for an empty alignment).
std::string cigar_string(const Cigar& cigar);

struct Alignment {
  int score = 0;
  // 0-based half-open ranges of the aligned parts. In score-only results
  // the begins are unknown (has_begin false); for an empty local alignment
  // (score 0) all four are 0 and the cigar is empty.
  std::int64_t query_begin = 0, query_end = 0, target_begin = 0, target_end = 0;
  bool has_begin = false;
  Cigar cigar;  // empty for score-only
  bool empty() const { return query_end == query_begin && target_end == target_begin; }
};

struct Options {
  Mode mode = Mode::local;
  bool score_only = false;
  Backend backend = Backend::cpu_scalar;
  int threads = 1;                 // for cpu_openmp, and the GPU's small passes
  Progress* progress = nullptr;    // cells done are added here, if set
  int device = 0;                  // for gpu: the CUDA device
  // For gpu, many pairs (align_all, align_each_query): the devices their
  // work is spread over, a host thread each (a database's targets, the
  // large pairs, the batches of small pairs aligned); empty: `device` alone.
  std::vector<int> devices{};
  // For gpu: passes of fewer cells run on the CPU (OpenMP), where they are
  // faster than a kernel launch. Tests set 0 to put every pass on the GPU.
  std::int64_t min_gpu_cells = std::int64_t{1} << 24;
  GpuTuning tuning{};              // for gpu: the score passes' knobs (defaults choose by the shape)
  // For gpu, many pairs (align_all, align_each_query): a query's score
  // passes go to the database-search kernels (batch_gpu.hpp) when its
  // cells against the targets they take reach this, and the full
  // alignments of pairs below min_gpu_cells go to the GPU at once when
  // theirs together do; tests set 0.
  std::int64_t min_batch_cells = std::int64_t{1} << 26;
  // For gpu: where a long pair's full alignment keeps the rows its score
  // pass saves (saved_rows.hpp) when they would take more than half the
  // free host memory; empty: the system's temporary directory.
  std::string tmpdir{};
  // For gpu: a score pass of one pair on the GPU saved to this file as it
  // goes, and taken up from it (pass_checkpoint.hpp).
  PassCheckpoint checkpoint{};
};

// What the GPU passes of this process did so far.
struct GpuStats {
  int passes = 0;
  double kernel_seconds = 0;       // in all kernels
  double traceback_seconds = 0;    // of which in the chunked traceback's kernel
  int overflow_reruns = 0;         // 16-bit passes whose score left the range, run again (striped_pass)
  int database_chunks = 0;         // the most chunks a searched database went up in (1: it fit)
  double database_search_seconds = 0;  // from a database's sorting to its last query's scores, in all
  std::size_t peak_memory_bytes = 0;  // the engine's device memory at its largest
  std::int64_t resumed_from_column = 0;  // where a pass saved to a checkpoint went on from (0: its start)
  std::int64_t stopped_at_column = 0;   // where such a pass stopped, saved, at its stop time (0: it did not)
};
GpuStats gpu_stats();

// Throws InputError when scores for sequences this long could leave the
// range an int32 engine handles exactly in this mode (score-only or not).
void check_score_range(std::int64_t query_length, std::int64_t target_length, const ScoringScheme& scheme, Mode mode,
                       bool score_only);

// Throws InputError where `path` holds a file that is not a checkpoint of
// the score pass of `query` against `target` in `mode` (pass_checkpoint.hpp),
// so that a run can refuse it before it writes anything.
void check_checkpoint(const std::string& path, std::span<const std::uint8_t> query, std::span<const std::uint8_t> target,
                      const ScoringScheme& scheme, Mode mode);

// Aligns one pair (ranks of `scheme`).
Alignment align(Residues query, Residues target,
                const ScoringScheme& scheme, const Options& options);

struct Hit {
  std::size_t query = 0, target = 0;  // indices into the inputs
  Alignment alignment;
  // The query's reverse complement was aligned (nucleotides' minus strand);
  // the alignment's query coordinates are then on the reverse complement.
  bool reverse_strand = false;
};

// Every query against every target, grouped by query. With top_k > 0 only
// each query's top_k best targets are kept, best first (ties in target
// order); otherwise every pair, in target order. A full alignment counts
// twice its cells in options.progress (the score pass, the traceback).
std::vector<Hit> align_all(const std::vector<Residues>& queries,
                           const std::vector<Residues>& targets, const ScoringScheme& scheme,
                           const Options& options, std::size_t top_k = 0);

// align_all's hits handed to `done` one query at a time, in query order,
// as soon as that query's pairs are aligned. `done` may be called on a
// thread other than the caller's (one call at a time).
//
// With group > 1 the queries come in groups of `group` in a row (queries.size()
// a multiple of it) that are one result: `done` gets a group's hits, target
// by target and the group's queries in order for each target; top_k keeps
// the group's top_k best pairs, best first (ties in that order), and only
// those are aligned.
//
// `keep`, where given, drops hits by their score after top_k has chosen
// (an E-value cut-off): only the hits it keeps are aligned and handed on,
// in the same order, so a query may get none. It is called from several
// threads at once.
using QueryHits = std::function<void(std::span<const Hit>)>;
using HitFilter = std::function<bool(std::size_t query, std::size_t target, int score)>;
void align_each_query(const std::vector<Residues>& queries, const std::vector<Residues>& targets,
                      const ScoringScheme& scheme, const Options& options, std::size_t top_k, const QueryHits& done,
                      std::size_t group = 1, const HitFilter& keep = {});

// Which strands of a nucleotide query are searched: the query as given
// (plus), its reverse complement (minus), or both.
enum class Strand { plus, minus, both };
Strand parse_strand(std::string_view name);  // throws InputError
std::string_view to_string(Strand s);

// align_each_query over the query's strands; reverse_complements[i] is
// queries[i]'s reverse complement (not read for plus). `done` gets each
// query's hits, in query order, with their query index and reverse_strand
// set; with top_k > 0 its top_k best over the strands searched, best first
// (ties by target order, then plus before minus); otherwise every target in
// order, plus then minus for each. `keep` as align_each_query's, with the
// query's index as given.
void align_each_query_on_strands(const std::vector<Residues>& queries,
                                 const std::vector<Residues>& reverse_complements, Strand strand,
                                 const std::vector<Residues>& targets, const ScoringScheme& scheme,
                                 const Options& options, std::size_t top_k, const QueryHits& done,
                                 const HitFilter& keep = {});

// Re-scores an alignment from its CIGAR; the result must equal its score.
int rescore(const Alignment& a, Residues query, Residues target,
            const ScoringScheme& scheme);

}  // namespace gdp::pairwise
