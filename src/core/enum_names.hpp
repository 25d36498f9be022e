#pragma once
// One table of names an enum, read both ways: a value's name for output,
// and a name from the command line back to its value.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gdp {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
using EnumNames = std::array<EnumName<E>, N>;

// The name of v ("" for a value missing from the table).
template <class E, std::size_t N>
constexpr std::string_view name_of(const EnumNames<E, N>& names, E v) {
  for (const auto& n : names)
    if (n.value == v) return n.name;
  return {};
}

// "a, b or c": the names, for an error message.
template <class E, std::size_t N>
std::string names_list(const EnumNames<E, N>& names) {
  std::string s;
  for (std::size_t k = 0; k < N; ++k) s += std::string(k == 0 ? "" : k + 1 == N ? " or " : ", ") + std::string(names[k].name);
  return s;
}

// The value called `name`. InputError "unknown WHAT 'name' (use a, b or c)"
// for any other.
template <class E, std::size_t N>
E parse_enum(const EnumNames<E, N>& names, std::string_view name, std::string_view what) {
  for (const auto& n : names)
    if (n.name == name) return n.value;
  throw InputError("unknown " + std::string(what) + " '" + std::string(name) + "' (use " + names_list(names) + ")");
}

}  // namespace gdp
