#pragma once
// BLAST's tabular output (-outfmt 6): its columns and number formats.
#include <string>

#include "io/pairwise_writer.hpp"

namespace gdp::io {

// E-value and bit score as blastn/blastp 2.12 print them in -outfmt 6
// (CBlastTabularInfo over CAlignFormatUtil::GetScoreString, checked against
// the binaries): E below 1e-180 "0.0", below 0.0009 "%.2e", below 0.1
// "%.3f", below 1 "%.2f", below 10 "%.1f", else "%.0f"; a bit score above
// 99.9 as its integer part, else "%4.1f" (a leading space below 10).
std::string format_evalue(double evalue);
std::string format_bit_score(double bits);

// The twelve columns of one hit without the line's end: qseqid sseqid
// pident length mismatch gapopen qstart qend sstart send evalue bitscore.
// Needs an alignment (a CIGAR) and run.statistics.
std::string blast_tabular_line(const PairResult& r, const PairRun& run);

}  // namespace gdp::io
