#pragma once
// gpu-fold --interact's output formats: dot-bracket (RNAcofold's, with
// '[' ']' for pairs between the strands), the pair listing of the original
// BPMax, TSV and JSON, one record after another.
#include <ostream>
#include <string>
#include <string_view>

#include "core/enum_names.hpp"
#include "fold/bpmax.hpp"

namespace gdp::io {

enum class InteractionFormat { dotbracket, pairs, tsv, json };
inline constexpr EnumNames<InteractionFormat, 4> interaction_format_names{{{InteractionFormat::dotbracket, "dotbracket"},
                                                                           {InteractionFormat::pairs, "pairs"},
                                                                           {InteractionFormat::tsv, "tsv"},
                                                                           {InteractionFormat::json, "json"}}};
// InputError "unknown format 'x' (use dotbracket, pairs, tsv or json)".
InteractionFormat parse_interaction_format(std::string_view name);

// One record of two strands, as the input named them.
struct InteractionRecord {
  std::string id, description;
  std::string strand1, strand2;  // upper case A, C, G, U, N
};

// Before the first record (TSV's header line), then one record each; the
// score in the weights' unit, printed as a decimal.
void write_interaction_header(InteractionFormat format, std::ostream& out);
void write_interaction(InteractionFormat format, std::ostream& out, const InteractionRecord& record,
                       const fold::Interaction& result, int unit);

}  // namespace gdp::io
