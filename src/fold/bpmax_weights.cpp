// BPMax's options as the user writes them: the pair weights, and scores
// back as decimals, exact, in the smallest unit the weights need; the
// window.
#include <numeric>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fold/bpmax.hpp"

namespace gdp::fold {
namespace {

// "1.5" as hundredths (150); -1 when it is not 0 or more with at most two
// decimals.
long long hundredths(std::string_view t) {
  long long whole = 0, frac = 0;
  int decimals = -1;
  if (t.empty() || t.size() > 12) return -1;
  for (const char c : t) {
    if (c == '.' && decimals < 0) {
      decimals = 0;
    } else if (c >= '0' && c <= '9') {
      if (decimals < 0) whole = whole * 10 + (c - '0');
      else if (++decimals <= 2) frac = frac * 10 + (c - '0');
      else return -1;
    } else {
      return -1;
    }
  }
  if (decimals == 0 && t.size() == 1) return -1;  // "."
  if (decimals == 1) frac *= 10;
  return whole * 100 + frac;
}

}  // namespace

InteractionWeights parse_interaction_weights(std::string_view text) {
  std::vector<long long> w;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    w.push_back(hundredths(text.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from)));
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  if (w.size() != 3 || w[0] < 0 || w[1] < 0 || w[2] < 0 || w[0] > 100000 || w[1] > 100000 || w[2] > 100000)
    throw InputError("--weights takes GC,AU,GU: three weights of 0 to 1000 with at most two decimals, not '" +
                     std::string(text) + "'");
  const long long g = std::gcd(std::gcd(std::gcd(100LL, w[0]), w[1]), w[2]);
  InteractionWeights out;
  out.unit = static_cast<int>(100 / g);
  out.pairs = {static_cast<int>(w[0] / g), static_cast<int>(w[1] / g), static_cast<int>(w[2] / g)};
  return out;
}

InteractionWindow parse_interaction_window(std::string_view text) {
  const std::size_t comma = text.find(',');
  auto span = [&](std::string_view t) {
    long long v = 0;
    if (t.empty() || t.size() > 12) return -1LL;
    for (const char c : t) {
      if (c < '0' || c > '9') return -1LL;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  const long long one = comma == std::string_view::npos ? -1 : span(text.substr(0, comma));
  const long long two = comma == std::string_view::npos ? -1 : span(text.substr(comma + 1));
  if (one < 0 || two < 0)
    throw InputError("--window takes W1,W2: the most j - i of an interval on strand 1 and on strand 2, two whole numbers, not '" +
                     std::string(text) + "'");
  return {one, two};
}

std::string format_score(long long score, int unit) {
  // unit divides 100, so score / unit has at most two decimals.
  const long long cents = score * (100 / unit), whole = cents / 100, frac = cents % 100;
  std::string out = std::to_string(whole);
  if (frac != 0) out += frac % 10 == 0 ? "." + std::to_string(frac / 10) : (frac < 10 ? ".0" : ".") + std::to_string(frac);
  return out;
}

}  // namespace gdp::fold
