// The CPU engines of recurrence.hpp's recurrence, the traceback, and the
// engine's entry points for one record. CPU1 and CPU2 fill cells by
// diagonals (j - i = 1, 2, ...); CPU1 reads the split's second term down a
// column, CPU2 keeps a transposed copy so both terms are row reads; OMP2 is
// CPU2 on several threads, by square tiles as tasks that wait for the
// tiles they read (dissertation table 7-1 has it by diagonals of cells).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/build.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/timer.hpp"
#include "fold/fold.hpp"
#include "fold/recurrence.hpp"
#include "fold/table.hpp"

namespace gdp::fold {

Engine parse_engine(std::string_view name) { return parse_enum(engine_names, name, "engine"); }

std::string_view to_string(Engine e) { return name_of(engine_names, e); }

const std::array<TuneKey<GpuTuning>, 2> gpu_tune_keys{{
    {"rounds", "slices of k for this many rounds of the GPU's resident blocks (1 or more)",
     [](GpuTuning& t, std::string_view v) { t.rounds = tune_int("rounds", v, 1, 1 << 20); }},
    {"min_slice", "each slice of k at least this long (16 or more)",
     [](GpuTuning& t, std::string_view v) { t.min_slice = tune_int("min_slice", v, 16, 1 << 30); }},
}};

bool can_pair(char a, char b, const Rules& rules) { return pairs(base_code(a), base_code(b), rules.gu); }

Table packed_table(std::int64_t n, int threads) {
  Table t;
  t.n = n;
  const std::int64_t cells = std::max<std::int64_t>(Table::packed_cells(n), 1);
  t.packed.reset(new std::uint16_t[static_cast<std::size_t>(cells)]);
  constexpr std::int64_t kPage = 2048;  // cells: 4 KiB
  std::uint16_t* p = t.packed.get();
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t at = 0; at < cells; at += kPage) p[at] = 0;
  return t;
}

Table fill_cpu(std::string_view s, Engine engine, const Options& options) {
  const Rules& r = options.rules;
  Table t = Table::of_size(static_cast<std::int64_t>(s.size()));
  const std::int64_t n = t.n;
  std::vector<std::uint8_t> code(s.size());
  for (std::size_t x = 0; x < s.size(); ++x) code[x] = base_code(s[x]);
  std::vector<int> tr;  // CPU2, OMP2: tr[j * n + i] = C(i, j)
  if (engine != Engine::cpu1) tr.assign(static_cast<std::size_t>(n * n), 0);
  const auto fill = [&](std::int64_t i, std::int64_t j) {
    const std::int64_t d = j - i;
    const bool closes_pair = closes(code[static_cast<std::size_t>(i)], code[static_cast<std::size_t>(j)], d, r.min_loop, r.gu);
    const auto inner = [&] { return t.at(i + 1, j - 1); };
    int best = 0;
    if (engine == Engine::cpu1) {
      best = cell(closes_pair, inner, i, j, [&](std::int64_t k) { return t.at(i, k); },
                  [&](std::int64_t k) { return t.at(k + 1, j); });
    } else {  // row i of C and row j of the transpose: C(i,k) and C(k+1,j)
      const int* ci = &t.c[static_cast<std::size_t>(i * n)];
      const int* cj = &tr[static_cast<std::size_t>(j * n)];
      best = rows_cell(closes_pair, inner, ci, cj, i, j);
      tr[static_cast<std::size_t>(j * n + i)] = best;
    }
    t.c[static_cast<std::size_t>(i * n + j)] = best;
  };
  Progress progress(options.progress, fill_splits(n), fill_splits(n));
  if (engine != Engine::omp2) {
    for (std::int64_t d = 1; d < n; ++d) {
      for (std::int64_t i = 0; i < n - d; ++i) fill(i, i + d);
      progress.add(static_cast<std::uint64_t>((n - d) * d));
    }
    return t;
  }
  // OMP2: square tiles of the table, each an OpenMP task that waits for
  // the tile left of it and the one below (and so for every tile it reads),
  // its rows from the last up and each left to right (every cell a cell
  // reads is then done: left of it in its row, below it in its column). No
  // barrier: a thread slowed by a busy core holds up only the tiles that
  // need its tile, while the others take every tile that is ready. About 8
  // tiles a thread along the side keeps the last diagonals, which have few
  // tiles, a small part of the work.
  const int threads = std::max(options.threads, 1);
  const std::int64_t side = std::clamp<std::int64_t>(n / (8 * threads), 16, 256);
  const std::int64_t tiles = (n + side - 1) / side;
  std::vector<char> done(static_cast<std::size_t>(tiles * tiles + 1));  // the tasks' dependences
  char* const no_tile = &done.back();
#pragma omp parallel num_threads(threads)
#pragma omp single
  for (std::int64_t diagonal = 0; diagonal < tiles; ++diagonal) {  // each task after the two it waits for
    for (std::int64_t row_tile = 0; row_tile < tiles - diagonal; ++row_tile) {
      const std::int64_t column_tile = row_tile + diagonal;
      char* const tile = &done[static_cast<std::size_t>(row_tile * tiles + column_tile)];
      char* const left = diagonal > 0 ? tile - 1 : no_tile;
      char* const below = diagonal > 0 ? tile + tiles : no_tile;
#pragma omp task depend(in : *left, *below) depend(out : *tile) firstprivate(row_tile, column_tile)
      {
        const std::int64_t j_begin = column_tile * side, j_end = std::min(n, j_begin + side);
        std::int64_t splits = 0;
        for (std::int64_t i = std::min(n, (row_tile + 1) * side) - 1; i >= row_tile * side; --i)
          for (std::int64_t j = std::max(i + 1, j_begin); j < j_end; ++j) fill(i, j), splits += j - i;
        progress.add(static_cast<std::uint64_t>(splits));
      }
    }
  }
  return t;
}

namespace {

// An optimal structure of [0, n-1], traced back with an explicit stack: in
// each interval the pair (i, j) if it gives C(i,j), else the first split k
// that does (the GPU's trace_small makes the same choices).
void trace(const Table& t, std::string_view s, const Rules& r, Structure& out) {
  const auto at = [&t](std::int64_t i, std::int64_t j) { return t.at(i, j); };
  std::vector<std::pair<std::int64_t, std::int64_t>> todo;
  if (t.n > 1) todo.push_back({0, t.n - 1});
  while (!todo.empty()) {
    const auto [i, j] = todo.back();
    todo.pop_back();
    if (j <= i) continue;
    const int v = t.at(i, j);
    if (v == 0) continue;
    if (pair_gives(at, base_code(s[static_cast<std::size_t>(i)]), base_code(s[static_cast<std::size_t>(j)]), i, j, v,
                   r.min_loop, r.gu)) {
      out.partner[static_cast<std::size_t>(i)] = static_cast<int>(j);
      out.partner[static_cast<std::size_t>(j)] = static_cast<int>(i);
      todo.push_back({i + 1, j - 1});
      continue;
    }
    std::int64_t k = i;
    while (k < j && !split_gives(v, t.at(i, k), t.at(k + 1, j))) ++k;
    if (k == j) throw std::logic_error("Nussinov traceback found no split");
    todo.push_back({i, k});
    todo.push_back({k + 1, j});
  }
}

// The traced structure of a filled table, with its dot-bracket string.
Structure structure_of(const Table& t, std::string_view rna, const Rules& rules) {
  Structure out;
  out.partner.assign(rna.size(), -1);
  out.pairs = t.n > 1 ? t.at(0, t.n - 1) : 0;
  trace(t, rna, rules, out);
  out.dot_bracket.assign(rna.size(), '.');
  for (std::size_t i = 0; i < rna.size(); ++i)
    if (out.partner[i] > static_cast<int>(i)) out.dot_bracket[i] = '(', out.dot_bracket[static_cast<std::size_t>(out.partner[i])] = ')';
  return out;
}

// A structure from its dot-bracket string (the GPU's traceback of short
// records sends back only that).
Structure structure_of(std::string dot_bracket) {
  Structure out;
  out.partner.assign(dot_bracket.size(), -1);
  std::vector<int> open;
  for (std::size_t x = 0; x < dot_bracket.size(); ++x) {
    if (dot_bracket[x] == '(') open.push_back(static_cast<int>(x));
    if (dot_bracket[x] != ')') continue;
    const int i = open.back();
    open.pop_back();
    out.partner[static_cast<std::size_t>(i)] = static_cast<int>(x);
    out.partner[x] = i;
    ++out.pairs;
  }
  out.dot_bracket = std::move(dot_bracket);
  return out;
}

}  // namespace

void check_rna(std::string_view rna, const Rules& rules) {
  for (std::size_t i = 0; i < rna.size(); ++i)
    if (!is_rna_letter(rna[i]))
      throw InputError("letter '" + std::string(1, rna[i]) + "' at position " + std::to_string(i + 1) +
                       " is not an RNA base (A, C, G, U, or " + std::string(kUnpairedBases) + ")");
  if (rules.min_loop < 0) throw InputError("--min-loop takes 0 or more");
}

std::vector<Structure> fold_rnas_gpu(const std::vector<std::string_view>& rnas, const Options& options,
                                     FoldTiming* timing) {
  for (const std::string_view rna : rnas) check_rna(rna, options.rules);
  if constexpr (!have_cuda) {
    throw RunError(no_cuda_message);
  } else {
    double seconds = 0;
    std::vector<std::string> traced;  // the short records', traced on the device
    const std::vector<Table> tables = fill_gpu_batch(rnas, options, seconds, &traced);
    if (timing) timing->fill_seconds = seconds;
    Timer timer;
    std::vector<Structure> out(rnas.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(options.threads, 1))
    for (std::size_t r = 0; r < rnas.size(); ++r)
      out[r] = traced[r].empty() ? structure_of(tables[r], rnas[r], options.rules) : structure_of(std::move(traced[r]));
    if (timing) timing->trace_seconds = timer.seconds();
    return out;
  }
}

Structure fold_rna(std::string_view rna, Engine engine, const Options& options, FoldTiming* timing) {
  check_rna(rna, options.rules);
  FoldTiming times;
  Timer timer;
  Table t;
  if (engine != Engine::gpu) {
    t = fill_cpu(rna, engine, options);
    times.fill_seconds = timer.seconds();
  } else if constexpr (have_cuda) {
    t = fill_gpu(rna, options, times);
  } else {
    throw RunError(no_cuda_message);
  }
  timer.restart();
  Structure out = structure_of(t, rna, options.rules);
  times.trace_seconds = timer.seconds();
  if (timing) *timing = times;
  return out;
}

}  // namespace gdp::fold
