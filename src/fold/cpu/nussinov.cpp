// Nussinov's recurrence as simplified by Chang et al.:
//
//   C(i,j) = max( C(i+1,j-1) + 1  if a_i and a_j pair and j - i > min_loop,
//                 max over i <= k < j of C(i,k) + C(k+1,j) )
//
// with C(i,j) = 0 for j <= i. The split at k = i and k = j - 1 covers
// Nussinov's "a_i unpaired" and "a_j unpaired" cases. Cells are filled by
// diagonals (j - i = 1, 2, ...). CPU1 reads the split's second term down a
// column; CPU2 keeps a transposed copy so both terms are row reads; OMP2 is
// CPU2 with each diagonal's cells on several threads (dissertation table 7-1).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "fold/fold.hpp"
#include "fold/table.hpp"

namespace gdp::fold {

Engine parse_engine(std::string_view name) {
  if (name == "cpu1") return Engine::cpu1;
  if (name == "cpu2") return Engine::cpu2;
  if (name == "omp2") return Engine::omp2;
  if (name == "gpu") return Engine::gpu;
  throw InputError("unknown engine '" + std::string(name) + "' (use cpu1, cpu2, omp2 or gpu)");
}

std::string_view to_string(Engine e) {
  switch (e) {
    case Engine::cpu1: return "cpu1";
    case Engine::cpu2: return "cpu2";
    case Engine::omp2: return "omp2";
    case Engine::gpu: return "gpu";
  }
  return "?";
}

bool can_pair(char a, char b, const Rules& rules) {
  if (a > b) std::swap(a, b);
  return (a == 'A' && b == 'U') || (a == 'C' && b == 'G') || (rules.gu && a == 'G' && b == 'U');
}

namespace {

}  // namespace

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

Table fill_cpu(std::string_view s, const Rules& r, Engine engine, int threads) {
  Table t = Table::of_size(static_cast<std::int64_t>(s.size()));
  const std::int64_t n = t.n;
  std::vector<int> tr;  // CPU2, OMP2: tr[j * n + i] = C(i, j)
  if (engine != Engine::cpu1) tr.assign(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t d = 1; d < n; ++d) {
    const auto cell = [&](std::int64_t i) {
      const std::int64_t j = i + d;
      int best = d > r.min_loop && can_pair(s[i], s[j], r) ? t.at(i + 1, j - 1) + 1 : 0;
      if (engine == Engine::cpu1) {
        for (std::int64_t k = i; k < j; ++k) best = std::max(best, t.at(i, k) + t.at(k + 1, j));
      } else {  // row i of C and row j of the transpose: C(i,k) and C(k+1,j)
        const int* ci = &t.c[static_cast<std::size_t>(i * n)];
        const int* cj = &tr[static_cast<std::size_t>(j * n)];
        for (std::int64_t k = i; k < j; ++k) best = std::max(best, (k > i ? ci[k] : 0) + (k + 1 < j ? cj[k + 1] : 0));
        tr[static_cast<std::size_t>(j * n + i)] = best;
      }
      t.c[static_cast<std::size_t>(i * n + j)] = best;
    };
    if (engine == Engine::omp2) {
#pragma omp parallel for schedule(static) num_threads(threads)
      for (std::int64_t i = 0; i < n - d; ++i) cell(i);
    } else {
      for (std::int64_t i = 0; i < n - d; ++i) cell(i);
    }
  }
  return t;
}

namespace {

// An optimal structure of [i, j], traced back with an explicit stack.
void trace(const Table& t, std::string_view s, const Rules& r, Structure& out) {
  std::vector<std::pair<std::int64_t, std::int64_t>> todo;
  if (t.n > 1) todo.push_back({0, t.n - 1});
  while (!todo.empty()) {
    const auto [i, j] = todo.back();
    todo.pop_back();
    if (j <= i) continue;
    const int v = t.at(i, j);
    if (v == 0) continue;
    if (j - i > r.min_loop && can_pair(s[i], s[j], r) && v == t.at(i + 1, j - 1) + 1) {
      out.partner[static_cast<std::size_t>(i)] = static_cast<int>(j);
      out.partner[static_cast<std::size_t>(j)] = static_cast<int>(i);
      todo.push_back({i + 1, j - 1});
      continue;
    }
    std::int64_t k = i;
    while (k < j && t.at(i, k) + t.at(k + 1, j) != v) ++k;
    if (k == j) throw std::logic_error("Nussinov traceback found no split");
    todo.push_back({i, k});
    todo.push_back({k + 1, j});
  }
}

}  // namespace

namespace {

void check_input(std::string_view rna, const Rules& rules) {
  for (std::size_t i = 0; i < rna.size(); ++i)
    if (rna[i] != 'A' && rna[i] != 'C' && rna[i] != 'G' && rna[i] != 'U')
      throw InputError("letter '" + std::string(1, rna[i]) + "' at position " + std::to_string(i + 1) +
                       " is not an RNA base (A, C, G, U; T is read as U)");
  if (rules.min_loop < 0) throw InputError("--min-loop takes 0 or more");
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

std::vector<Structure> fold_rnas_gpu(const std::vector<std::string_view>& rnas, const Rules& rules, int device,
                                     int threads, FoldTiming* timing) {
  for (const std::string_view rna : rnas) check_input(rna, rules);
  double seconds = 0;
  std::vector<std::string> traced;  // the short records', traced on the device
  const std::vector<Table> tables = fill_gpu_batch(rnas, rules, device, seconds, &traced);
  if (timing) timing->fill_seconds = seconds;
  Timer timer;
  std::vector<Structure> out(rnas.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(threads, 1))
  for (std::size_t r = 0; r < rnas.size(); ++r)
    out[r] = traced[r].empty() ? structure_of(tables[r], rnas[r], rules) : structure_of(std::move(traced[r]));
  if (timing) timing->trace_seconds = timer.seconds();
  return out;
}

Structure fold_rna(std::string_view rna, const Rules& rules, Engine engine, int threads, int device,
                   FoldTiming* timing) {
  check_input(rna, rules);
  double seconds = 0;
  Timer timer;
  double copy_seconds = 0;
  const Table t = engine == Engine::gpu ? fill_gpu(rna, rules, device, seconds, &copy_seconds)
                                        : fill_cpu(rna, rules, engine, threads);
  if (engine != Engine::gpu) seconds = timer.seconds();
  if (timing) timing->fill_seconds = seconds, timing->copy_seconds = copy_seconds;
  timer.restart();
  Structure out = structure_of(t, rna, rules);
  if (timing) timing->trace_seconds = timer.seconds();
  return out;
}

}  // namespace gdp::fold
