// An optimal three-way alignment in O(|b| |c|) memory: Hirschberg's
// division in three dimensions (Huang 1993). Every path from (0, 0, 0) to
// (|a|, |b|, |c|) meets the layer i = |a| / 2; with linear gaps a column's
// score depends on nothing before it, so the best path through a point of
// the layer is the best path to it plus the best path from it: a forward
// pass to the layer and a pass over the reversed sequences from the end
// give both for every point, and the two halves are aligned the same way.
// The parts small enough for the full cube (the leaves) are aligned last,
// on the threads at once, and their moves joined in order.
#include <stdexcept>
#include <vector>

#include "align3/cpu/passes.hpp"
#include "core/parallel_for.hpp"
#include "align3/recurrence.hpp"

namespace gdp::align3 {
namespace {

struct Leaf {
  Residues a, b, c;
};

// A chain runs from (0, 0, 0) to the cube's last cell, never backwards.
void check_chain(const std::vector<CubePoint>& points, Residues a, Residues b, Residues c) {
  bool ok = points.size() >= 2 && points.front() == CubePoint{} &&
            points.back() == CubePoint{a.size(), b.size(), c.size()};
  for (std::size_t x = 1; ok && x < points.size(); ++x)
    ok = points[x - 1].i <= points[x].i && points[x - 1].j <= points[x].j && points[x - 1].k <= points[x].k;
  if (!ok) throw std::logic_error("gpu-align3: a chain of cells that does not cross the cube in order");
}

struct Divider {
  const SplitPass& split;
  const ChainPass& chain;
  long long base_cells;
  std::vector<Leaf> leaves;  // in the order of their columns

  void divide(Residues a, Residues b, Residues c, bool may_chain) {
    const long long m = static_cast<long long>(a.size()), n = static_cast<long long>(b.size()),
                    p = static_cast<long long>(c.size());
    if (m <= 1 || (m + 1) * (n + 1) * (p + 1) <= base_cells) {
      leaves.push_back({a, b, c});
      return;
    }
    if (may_chain && chain) {
      if (const std::optional<std::vector<CubePoint>> points = chain(a, b, c)) {
        check_chain(*points, a, b, c);
        // The pieces are at most a chunk's rows and columns: divided again,
        // never chained (a chain of one piece would be that piece).
        for (std::size_t x = 1; x < points->size(); ++x) {
          const CubePoint from = (*points)[x - 1], to = (*points)[x];
          divide(a.subspan(from.i, to.i - from.i), b.subspan(from.j, to.j - from.j), c.subspan(from.k, to.k - from.k),
                 false);
        }
        return;
      }
    }
    const std::size_t mid = static_cast<std::size_t>(m / 2);
    const SplitPoint at = split(a.first(mid), a.subspan(mid), b, c);
    divide(a.first(mid), b.first(at.j), c.first(at.k), may_chain);
    divide(a.subspan(mid), b.subspan(at.j), c.subspan(at.k), may_chain);
  }
};

}  // namespace

Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap, int threads,
                       long long base_cells) {
  const LayerPass cpu = [&](Residues x, Residues y, Residues z) { return last_layer(x, y, z, scheme, gap, threads); };
  return align_linear(a, b, c, scheme, gap, cpu, base_cells, threads);
}

std::vector<std::uint8_t> reversed(Residues r) { return {r.rbegin(), r.rend()}; }

SplitPass split_by_layers(const LayerPass& layer) {
  return [layer](Residues top, Residues bottom, Residues b, Residues c) {
    const std::vector<int> forward = layer(top, b, c);
    const std::vector<std::uint8_t> ra = reversed(bottom), rb = reversed(b), rc = reversed(c);
    const std::vector<int> backward = layer(ra, rb, rc);
    const std::size_t n = b.size(), p = c.size(), w = p + 1;
    long long best = static_cast<long long>(neg_inf) * 2;
    SplitPoint at;
    for (std::size_t j = 0; j <= n; ++j)
      for (std::size_t k = 0; k <= p; ++k) {
        const long long h = static_cast<long long>(forward[j * w + k]) + backward[(n - j) * w + (p - k)];
        if (h > best) best = h, at = {j, k, h};
      }
    return at;
  };
}

Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                       const LayerPass& layer, long long base_cells, int leaf_threads) {
  return align_linear(a, b, c, scheme, gap, split_by_layers(layer), base_cells, leaf_threads);
}

Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                       const SplitPass& split, long long base_cells, int leaf_threads) {
  return align_linear(a, b, c, scheme, gap, split, ChainPass{}, base_cells, leaf_threads);
}

Alignment align_linear(Residues a, Residues b, Residues c, const ScoringScheme& scheme, int gap,
                       const SplitPass& split, const ChainPass& chain, long long base_cells, int leaf_threads) {
  Divider d{split, chain, base_cells, {}};
  d.divide(a, b, c, true);
  std::vector<Alignment> parts(d.leaves.size());
  parallel_for(static_cast<std::int64_t>(d.leaves.size()), leaf_threads, [&](std::int64_t x) {
    const Leaf& l = d.leaves[static_cast<std::size_t>(x)];
    parts[static_cast<std::size_t>(x)] = align_full_cube(l.a, l.b, l.c, scheme, gap);
  });
  Alignment out;
  for (const Alignment& part : parts) {
    out.score += part.score;
    out.moves.insert(out.moves.end(), part.moves.begin(), part.moves.end());
  }
  return out;
}

}  // namespace gdp::align3
