#pragma once
// Sequences as read from FASTA/FASTQ files, before encoding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gdp {

struct SequenceRecord {
  std::string id;           // the header up to the first white space
  std::string description;  // the rest of the header line
  std::string residues;     // upper case, exactly the letters of the file
  std::size_t line = 0;     // 1-based line of the header
  std::vector<std::uint32_t> line_lengths;  // residues on each sequence line
  std::string quality;      // FASTQ: the quality line as written (Phred+33); empty for FASTA
};

struct SequenceFile {
  std::string path;  // as the user named it; "-" is standard input
  std::vector<SequenceRecord> records;

  // Name to use in messages ("<stdin>" for "-").
  std::string display_name() const { return path == "-" ? "<stdin>" : path; }
  // 1-based line of residue `offset` (0-based) of record `record`.
  std::size_t line_of(std::size_t record, std::size_t offset) const;
  std::size_t total_residues() const;
};

}  // namespace gdp
