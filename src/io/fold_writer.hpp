#pragma once
// gpu-fold's output formats: dot-bracket (Vienna style), BPSEQ, CT, TSV and
// JSON, one record after another.
#include <ostream>
#include <string>
#include <string_view>

#include "core/enum_names.hpp"
#include "fold/fold.hpp"

namespace gdp::io {

enum class FoldFormat { dotbracket, bpseq, ct, tsv, json };
inline constexpr EnumNames<FoldFormat, 5> fold_format_names{{{FoldFormat::dotbracket, "dotbracket"},
                                                              {FoldFormat::bpseq, "bpseq"},
                                                              {FoldFormat::ct, "ct"},
                                                              {FoldFormat::tsv, "tsv"},
                                                              {FoldFormat::json, "json"}}};
// InputError "unknown format 'x' (use dotbracket, bpseq, ct, tsv or json)".
FoldFormat parse_fold_format(std::string_view name);

// Before the first record (TSV's header line), then one record each: its
// id and the rest of its header line (description), as the input had them.
void write_fold_header(FoldFormat format, std::ostream& out);
void write_fold(FoldFormat format, std::ostream& out, const std::string& id, const std::string& description,
                const std::string& rna, const fold::Structure& structure);

}  // namespace gdp::io
