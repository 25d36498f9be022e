#pragma once
// gpu-fold's output formats: dot-bracket (Vienna style), BPSEQ, CT, TSV and
// JSON, one record after another.
#include <ostream>
#include <string>
#include <string_view>

#include "fold/fold.hpp"

namespace gdp::io {

enum class FoldFormat { dotbracket, bpseq, ct, tsv, json };
FoldFormat parse_fold_format(std::string_view name);  // throws InputError

// Before the first record (TSV's header line), then one record each.
void write_fold_header(FoldFormat format, std::ostream& out);
void write_fold(FoldFormat format, std::ostream& out, const std::string& id, const std::string& rna,
                const fold::Structure& structure);

}  // namespace gdp::io
