// Fuzz target: the FASTA / FASTQ / plain-lines reader
// (core/sequence_reader.hpp, parse_sequences) on any bytes, in each of its
// modes. An InputError is the answer to bad input; anything else (a crash,
// another exception, a sanitizer's report, a record that breaks the
// reader's promises) is a bug. Run by scripts/fuzz.sh; ctest replays
// fuzz/corpus/sequences through corpus_main.cpp.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/sequence_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const gdp::PlainLines plain : {gdp::PlainLines::refuse, gdp::PlainLines::records})
    for (const gdp::Ampersand amp : {gdp::Ampersand::refuse, gdp::Ampersand::keep}) {
      try {
        const gdp::SequenceFile file = gdp::parse_sequences(text, "fuzz.fa", plain, amp);
        if (file.records.empty()) throw std::logic_error("a file read without error has no records");
        for (std::size_t r = 0; r < file.records.size(); ++r) {
          const gdp::SequenceRecord& record = file.records[r];
          if (record.id.empty() || record.residues.empty()) throw std::logic_error("a record without a name or residues");
          if (file.line_of(r, record.residues.size() - 1) == 0) throw std::logic_error("a residue on no line");
        }
      } catch (const gdp::InputError&) {
      }
    }
  return 0;
}
