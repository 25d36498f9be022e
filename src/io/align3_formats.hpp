#pragma once
// One function per gpu-align3 format; write_align3 picks among them.
#include "io/align3_writer.hpp"

namespace gdp::io {
void write_align3_fasta(std::ostream& out, const Align3Result& result);
void write_align3_clustal(std::ostream& out, const Align3Run& run, const Align3Result& result);
void write_align3_tsv(std::ostream& out, const Align3Run& run, const Align3Result& result);
void write_align3_json(std::ostream& out, const Align3Run& run, const Align3Result& result);
}  // namespace gdp::io
