#include "core/sequence.hpp"

namespace gdp {

std::size_t SequenceFile::line_of(std::size_t record, std::size_t offset) const {
  const SequenceRecord& r = records.at(record);
  std::size_t line = r.line + 1;
  for (std::uint32_t len : r.line_lengths) {
    if (offset < len) return line;
    offset -= len;
    ++line;
  }
  return line;
}

std::size_t SequenceFile::total_residues() const {
  std::size_t n = 0;
  for (const auto& r : records) n += r.residues.size();
  return n;
}

}  // namespace gdp
