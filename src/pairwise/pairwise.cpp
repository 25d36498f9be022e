// The engine's entry point: one score pass finds the score and the end cell;
// a full alignment then finds the begin cell with a reverse pass anchored at
// the end, and aligns the two globally in linear memory (Myers-Miller). On
// the GPU, a pair whose chunked traceback fits in device memory is aligned
// by it instead, and so is each part of Myers-Miller's that fits; a local
// alignment there goes to Myers-Miller from its end cell, which finds the
// begin on its way.
#include "pairwise/pairwise.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <spdlog/spdlog.h>

#include "core/device.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "pairwise/cpu/passes.hpp"
#include "pairwise/cuda/gpu_pass.hpp"
#include "pairwise/modes.hpp"

namespace gdp::pairwise {

namespace {
constexpr EnumNames<Mode, 3> mode_names{{{Mode::local, "local"}, {Mode::global, "global"}, {Mode::semiglobal, "semiglobal"}}};
constexpr EnumNames<Backend, 3> backend_names{
    {{Backend::cpu_scalar, "cpu-scalar"}, {Backend::cpu_openmp, "cpu-openmp"}, {Backend::gpu, "gpu"}}};
}  // namespace

Mode parse_mode(std::string_view name) { return parse_enum(mode_names, name, "mode"); }
std::string_view to_string(Mode m) { return name_of(mode_names, m); }
std::string_view to_string(Backend b) { return name_of(backend_names, b); }

std::string cigar_string(const Cigar& cigar) {
  std::string s;
  for (const auto& r : cigar) s += std::to_string(r.length) + static_cast<char>(r.op);
  return s;
}

void check_score_range(std::int64_t m, std::int64_t n, const ScoringScheme& s, Mode mode, bool score_only) {
  // A local score pass keeps H within 0 and min(m, n) times the largest
  // score, and E and F above -(open + extend): the shorter sequence bounds
  // it. (A local alignment's passes toward its start are not so bounded.)
  if (mode == Mode::local && score_only) m = n = std::min(m, n);
  // Every H, E and F lies within this bound of zero; Myers-Miller adds two.
  const double bound = static_cast<double>(m + n) * (s.max_abs_score() + s.gap_extend) + 2.0 * s.gap_open;
  if (bound >= static_cast<double>(1 << 29))
    throw InputError("sequences of " + std::to_string(m) + " and " + std::to_string(n) +
                     " letters with these scores could overflow 32-bit scores; use smaller scores or gap costs");
}

namespace {

std::vector<std::uint8_t> reversed(Residues r) { return {r.rbegin(), r.rend()}; }

// The rows a long pair's GPU score pass saves for align_by_saved_rows: its
// parts between them (about this many rows and columns) fit the chunked
// traceback, and the rows of a pair of 10^7 letters each take 12 GB. A
// shorter query (one whose kept edges were held to less memory) saves 8
// rows.
constexpr std::int64_t kSavedRowSpacing = 65536;

// On the GPU, Myers-Miller's parts (and align_by_saved_rows') go whole to
// the chunked traceback once their kept edges fit; `parts` counts them.
// Safe to call from several threads.
WholeAligner chunked_parts(const ScoringScheme& scheme, const Options& o, Progress* traceback,
                           std::atomic<int>& parts) {
  if (o.backend != Backend::gpu) return {};
  return [&scheme, traceback, &parts](const Part& part, const Options& on, Cigar& cigar) -> std::optional<PartStart> {
    if (static_cast<std::int64_t>(part.q.size()) * static_cast<std::int64_t>(part.t.size()) < on.min_gpu_cells)
      return std::nullopt;
    auto start = align_gpu_chunked_part(part, scheme, on.device, on.tuning.traceback_bytes, traceback, cigar, on.tuning);
    if (start) ++parts;
    return start;
  };
}

// A long pair's local or global alignment on the GPU where its kept edges
// do not fit: the score pass saves every kSavedRowSpacing-th row, and the
// traceback splits the pair at them (cpu/passes.hpp: align_by_saved_rows).
// nullopt where the pass declines to save them.
std::optional<Alignment> align_from_saved_rows(Residues q, Residues t, const ScoringScheme& scheme, const Options& o,
                                               Progress& traceback) {
  Timer stage;
  const GpuStats before = gpu_stats();
  SavedRows saved;
  saved.every = static_cast<std::int64_t>(
      std::bit_floor(std::clamp<std::uint64_t>(q.size() / 8, 1, static_cast<std::uint64_t>(kSavedRowSpacing))));
  // In a file under tmpdir where they would take more than half the host
  // memory that is free.
  const std::uint64_t row_bytes = 2 * (t.size() + 1) * sizeof(int), free = available_memory_bytes();
  if (free > 0 && (q.size() / static_cast<std::uint64_t>(saved.every)) * row_bytes > free / 2)
    saved.spill_dir = o.tmpdir.empty() ? std::filesystem::temp_directory_path().string() : o.tmpdir;
  const auto end =
      score_pass_gpu_saving(q, t, scheme, shape_of(o.mode, scheme), o.device, o.tuning, o.progress, saved, o.devices);
  if (!end) return std::nullopt;
  const double score_seconds = stage.seconds(), score_kernel = gpu_stats().kernel_seconds - before.kernel_seconds;
  Alignment a = score_only_alignment(*end, o.mode);
  if (a.empty()) return a;
  a.has_begin = true;
  // The reverse passes and the parts: on similar pairs, each band's window
  // and each part about `every` columns wide.
  const std::int64_t longer = std::max(a.query_end, a.target_end);
  traceback.set_total(static_cast<std::uint64_t>(std::min(a.query_end * a.target_end, 2 * saved.every * longer)));
  Options linear = o;
  linear.progress = &traceback;
  // The parts run side by side: each may keep at most its share of half
  // the memory free now, so that together they fit (a wider part, as a
  // long gap makes, splits further by Myers-Miller).
  if (linear.tuning.traceback_bytes == 0 && linear.tuning.split_threads > 1)
    linear.tuning.traceback_bytes =
        static_cast<long long>(gpu_free_memory(o.device) / (2 * static_cast<std::size_t>(linear.tuning.split_threads)));
  std::atomic<int> parts = 0;
  PartStart start;
  SavedRowsSplit split;
  const int score = align_by_saved_rows(q.first(static_cast<std::size_t>(a.query_end)),
                                        t.first(static_cast<std::size_t>(a.target_end)), scheme,
                                        o.mode == Mode::local, saved, a.score, linear, a.cigar, start,
                                        chunked_parts(scheme, linear, &traceback, parts), &split,
                                        o.tuning.split_threads);
  if (score != a.score) throw std::logic_error("the split at saved rows scores " + std::to_string(score) + ", not " + std::to_string(a.score));
  a.query_begin = start.i, a.target_begin = start.j;
  const GpuStats after = gpu_stats();
  spdlog::debug("alignment of {} x {}: score pass {:.3f} s ({:.3f} s in its kernel) saving {} rows; the split at them "
                "{:.3f} s: {} reverse passes over {} cells ({} widened to the whole row), {} parts by the chunked "
                "traceback; {:.3f} s in kernels, {:.3f} s of it in the parts' walks (summed over the parts' threads)",
                q.size(), t.size(), score_seconds, score_kernel, saved.rows(), stage.seconds() - score_seconds,
                split.bands, split.cells, split.widened, parts.load(), after.kernel_seconds - before.kernel_seconds - score_kernel,
                after.traceback_seconds - before.traceback_seconds);
  return a;
}

}  // namespace

Alignment score_only_alignment(const PassResult& end, Mode mode) {
  Alignment a;
  a.score = end.score;
  a.query_end = end.end_i;
  a.target_end = end.end_j;
  a.has_begin = mode == Mode::global;
  if (mode == Mode::local && end.score == 0) {  // nothing scores above zero: the empty alignment
    a.query_end = a.target_end = 0;
    a.has_begin = true;
  }
  return a;
}

Alignment align(Residues q, Residues t, const ScoringScheme& scheme, const Options& o) {
  const std::int64_t cells = static_cast<std::int64_t>(q.size()) * static_cast<std::int64_t>(t.size());
  // The traceback's share of the progress: as many units as the score
  // pass's cells, counted by its own work (set once the end is known).
  Progress traceback(o.progress, o.score_only ? 0 : static_cast<std::uint64_t>(cells), 0);
  if (o.backend == Backend::gpu && !o.score_only && cells >= o.min_gpu_cells && cells > 0) {
    if (auto a = align_gpu_chunked(q, t, scheme, o.mode, o.device, o.tuning.traceback_bytes, o.progress, &traceback,
                                   o.tuning))
      return *a;
    if (o.mode != Mode::semiglobal && o.tuning.split_at_saved_rows)
      if (auto a = align_from_saved_rows(q, t, scheme, o, traceback)) return *a;
  }
  Timer stage;
  const Shape shape = shape_of(o.mode, scheme);
  Alignment a = score_only_alignment(run_pass(q, t, scheme, shape, o), o.mode);
  if (o.score_only || a.empty()) return a;
  const double score_seconds = stage.seconds();
  a.has_begin = true;
  Options linear = o;
  linear.progress = &traceback;

  // On the GPU, Myers-Miller's passes split the pair until a part's kept
  // edges fit, and the chunked traceback aligns that part whole.
  std::atomic<int> parts = 0;
  const WholeAligner chunked = chunked_parts(scheme, o, &traceback, parts);

  int score = 0;
  double begin_seconds = 0;
  if (o.backend == Backend::gpu && o.mode == Mode::local) {
    // Myers-Miller from the end cell finds the begin on its way: no pass
    // over the end's prefixes for it first. About twice their cells.
    traceback.set_total(static_cast<std::uint64_t>(2 * a.query_end * a.target_end));
    PartStart start;
    score = align_linear_local_end(q.first(static_cast<std::size_t>(a.query_end)),
                                   t.first(static_cast<std::size_t>(a.target_end)), scheme, linear, a.cigar, start,
                                   chunked);
    a.query_begin = start.i;
    a.target_begin = start.j;
  } else {
    // The traceback's work: the reverse pass over the end's prefixes, then
    // Myers-Miller's passes, about twice the aligned part's cells (at most
    // the prefixes', known better once the begin is).
    const std::int64_t reverse_cells = o.mode == Mode::global ? 0 : a.query_end * a.target_end;
    traceback.set_total(static_cast<std::uint64_t>(reverse_cells + 2 * a.query_end * a.target_end));

    // The begin cell: a pass over the reversed prefixes, anchored at the end
    // cell (global boundaries), reaches the best score first at the begin.
    if (o.mode == Mode::local || o.mode == Mode::semiglobal) {
      const auto rq = reversed(q.first(static_cast<std::size_t>(a.query_end)));
      const auto rt = reversed(t.first(static_cast<std::size_t>(a.target_end)));
      const Shape anchored{false, false, scheme.gap_open, o.mode == Mode::local ? End::anywhere : End::last_row};
      const PassResult begin = run_pass(rq, rt, scheme, anchored, linear);
      if (begin.score != a.score) throw std::logic_error("reverse pass disagrees with the forward pass");
      a.query_begin = a.query_end - begin.end_i;
      a.target_begin = a.target_end - begin.end_j;
      traceback.set_total(static_cast<std::uint64_t>(reverse_cells + 2 * begin.end_i * begin.end_j));
    }
    begin_seconds = stage.seconds() - score_seconds;
    const auto qs = q.subspan(static_cast<std::size_t>(a.query_begin), static_cast<std::size_t>(a.query_end - a.query_begin));
    const auto ts = t.subspan(static_cast<std::size_t>(a.target_begin), static_cast<std::size_t>(a.target_end - a.target_begin));
    score = align_linear_global(qs, ts, scheme, linear, a.cigar, chunked);
  }
  if (score != a.score) throw std::logic_error("linear-space alignment scores " + std::to_string(score) + ", not " + std::to_string(a.score));
  if (o.backend == Backend::gpu && cells >= o.min_gpu_cells)
    spdlog::debug("alignment of {} x {}: score pass {:.3f} s, begin pass {:.3f} s, linear space {:.3f} s ({} parts by "
                  "the chunked traceback)",
                  q.size(), t.size(), score_seconds, begin_seconds, stage.seconds() - score_seconds - begin_seconds, parts.load());
  return a;
}

int rescore(const Alignment& a, Residues q, Residues t, const ScoringScheme& s) {
  long long score = 0;
  std::int64_t i = a.query_begin, j = a.target_begin;
  for (const auto& r : a.cigar) {
    switch (r.op) {
      case Op::match:
      case Op::mismatch:
        for (std::int64_t k = 0; k < r.length; ++k, ++i, ++j) {
          if (i >= static_cast<std::int64_t>(q.size()) || j >= static_cast<std::int64_t>(t.size()))
            throw std::logic_error("CIGAR runs past the sequences");
          if ((q[i] == t[j]) != (r.op == Op::match)) throw std::logic_error("CIGAR =/X disagrees with the letters");
          score += s.score(q[i], t[j]);
        }
        break;
      case Op::insertion:
        score -= s.gap_cost(r.length);
        i += r.length;
        break;
      case Op::deletion:
        score -= s.gap_cost(r.length);
        j += r.length;
        break;
    }
  }
  if (i != a.query_end || j != a.target_end) throw std::logic_error("CIGAR does not span the aligned ranges");
  return static_cast<int>(score);
}

}  // namespace gdp::pairwise
