#pragma once
// One place of a score pass chained over several GPUs (chain_places.cuh):
// what its run needs to take its pieces of the target and hand their
// edges on. Plain C++, for both sides; `Edge` is the cell's (GotohEdge for
// gpu-sw, the syntenic cell's for gpu-syntenic).
#include <cstddef>
#include <functional>
#include <vector>

namespace gdp::pairwise::striped {

template <class Edge>
struct ChainLink {
  std::size_t place = 0, places = 1;  // pieces place, place + places, ... are this run's
  int sharing = 1;                    // the places on this run's device
  // In this device's memory (or host memory where the GPUs cannot reach
  // each other): the left edges of this run's pieces, m rows, and their
  // flag, which the place before writes.
  Edge* left_edge = nullptr;
  unsigned long long* left_flag = nullptr;
  // The next place's: where this run's pieces write their right edges.
  Edge* right_edge = nullptr;
  unsigned long long* right_flag = nullptr;
  const int* abort = nullptr;  // host memory: set when a place has failed
  // Called once the run is set up, before its first launch, with the
  // pieces' cuts it planned (strip_plan.hpp: chained_cuts; none: it
  // declines the pass): whether to go on. No place launches before every
  // place has called it, as a piece may wait on any earlier one. Throws
  // where the chain cannot go on (a place failed, or the places' cuts
  // differ).
  std::function<bool(const std::vector<long long>& cuts)> ready;

  // The pieces of `cuts` that are this place's, as their indices.
  std::vector<std::size_t> pieces(const std::vector<long long>& cuts) const {
    std::vector<std::size_t> mine;
    for (std::size_t k = place; k + 1 < cuts.size(); k += places) mine.push_back(k);
    return mine;
  }
};

}  // namespace gdp::pairwise::striped
