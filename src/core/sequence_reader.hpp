#pragma once
#include <string>

#include "core/sequence.hpp"

namespace gdp {

// Reads every record of a FASTA or FASTQ file, plain or gzip-compressed
// ("-" reads standard input). The format is decided by the content, not the
// name. Throws InputError, naming the file and line, for a missing, empty or
// unreadable file, a record with no sequence, or a malformed record.
SequenceFile read_sequences(const std::string& path);

}  // namespace gdp
