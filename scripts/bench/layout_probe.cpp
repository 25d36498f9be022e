// The database search's host layout alone (src/pairwise/batch_layout.cpp):
// sorting COUNT synthetic protein targets (lengths log-normal around 300, as
// make_protein_db.py's) by length, laying them out in pairs, and writing
// their interleaved letters on THREADS threads into a buffer already
// touched, as the pinned staging buffer is. Prints seconds of each step.
// Usage: layout_probe COUNT THREADS
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "pairwise/batch_layout.hpp"

int main(int argc, char** argv) {
  using namespace gdp::pairwise;
  if (argc != 3) {
    std::fprintf(stderr, "usage: layout_probe COUNT THREADS\n");
    return 2;
  }
  const long count = std::atol(argv[1]);
  const int threads = std::atoi(argv[2]);
  std::mt19937 rng(7);
  std::lognormal_distribution<double> length(std::log(300.0) - 0.18, 0.6);
  std::vector<std::vector<std::uint8_t>> store(static_cast<std::size_t>(count));
  for (auto& s : store) s.assign(static_cast<std::size_t>(std::clamp(static_cast<int>(length(rng)), 30, 5000)), 3);
  const std::vector<Residues> targets(store.begin(), store.end());
  using clock = std::chrono::steady_clock;
  auto seconds = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const auto t0 = clock::now();
  const std::vector<std::int64_t> sorted = batch::by_length(targets);
  const auto t1 = clock::now();
  const batch::Layout l = batch::lay_out(sorted, 0, sorted.size(), targets, true);
  const auto t2 = clock::now();
  std::vector<std::uint8_t> out(l.bytes(), 1);
  const auto t3 = clock::now();
  batch::write_letters(l, 0, l.offset.size(), targets, 24, out.data(), threads);
  const auto t4 = clock::now();
  std::printf("| %ld | %lld | %d | %.3f | %.3f | %.3f | %.2f |\n", count, static_cast<long long>(l.residues), threads,
              seconds(t0, t1), seconds(t1, t2), seconds(t3, t4), static_cast<double>(l.bytes()) / seconds(t3, t4) / 1e9);
}
