#pragma once
// Benchmark knobs: each engine takes a tuning struct with its defaults; the
// apps' hidden `--tune key=value` (repeatable) sets its fields through a
// table of keys that the engine publishes beside the struct. Nothing is
// read from the environment.
#include <array>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gdp {

template <class Tuning>
struct TuneKey {
  std::string_view key;
  std::string_view help;  // what the value means
  void (*set)(Tuning&, std::string_view value);
};

// An integer value of `key` within lo..hi; InputError otherwise.
inline long long tune_int(std::string_view key, std::string_view value, long long lo, long long hi) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < lo || v > hi)
    throw InputError("--tune " + std::string(key) + "=" + std::string(value) + ": takes an integer from " +
                     std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

// Applies every "key=value" of `settings` to `tuning` through `keys`.
// InputError for a setting without '=' or with a key missing from `keys`.
template <class Tuning, std::size_t N>
void apply_tune(Tuning& tuning, const std::array<TuneKey<Tuning>, N>& keys, const std::vector<std::string>& settings) {
  for (const std::string& s : settings) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos) throw InputError("--tune takes key=value, not '" + s + "'");
    const std::string_view key = std::string_view(s).substr(0, eq), value = std::string_view(s).substr(eq + 1);
    bool known = false;
    for (const auto& k : keys)
      if (k.key == key) k.set(tuning, value), known = true;
    if (!known) {
      std::string list;
      for (const auto& k : keys) list += (list.empty() ? "" : ", ") + std::string(k.key);
      throw InputError("--tune: unknown key '" + std::string(key) + "' (known: " + (list.empty() ? "none" : list) + ")");
    }
  }
}

}  // namespace gdp
