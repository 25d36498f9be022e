#pragma once
#include <string>

#include "core/sequence.hpp"

namespace gdp {

// Reads every record of a FASTA or FASTQ file, plain or gzip-compressed
// ("-" reads standard input). The format is decided by the content, not the
// name. Throws InputError, naming the file and line, for a missing, empty or
// unreadable file, a record with no sequence, or a malformed record.
// With PlainLines::records, input that starts with neither '>' nor '@' is
// read as RNAfold reads it: each non-blank line one sequence, named seq1,
// seq2, ... by its order.
enum class PlainLines { refuse, records };
// With Ampersand::keep, '&' may stand in a sequence (gpu-fold --interact's
// SEQ1&SEQ2 records); otherwise it is an unexpected character.
enum class Ampersand { refuse, keep };
SequenceFile read_sequences(const std::string& path, PlainLines plain = PlainLines::refuse,
                            Ampersand amp = Ampersand::refuse);
// The same for a file's text already in memory (uncompressed), named
// `path` in messages.
SequenceFile parse_sequences(std::string text, const std::string& path, PlainLines plain = PlainLines::refuse,
                             Ampersand amp = Ampersand::refuse);

}  // namespace gdp
