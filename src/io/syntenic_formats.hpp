#pragma once
// One factory per gpu-syntenic format; make_syntenic_writer picks among them.
#include "io/syntenic_writer.hpp"

namespace gdp::io {
std::unique_ptr<SyntenicWriter> make_syntenic_listing_writer(std::ostream& out, const SyntenicRun& run);
std::unique_ptr<SyntenicWriter> make_syntenic_paf_writer(std::ostream& out, const SyntenicRun& run);
std::unique_ptr<SyntenicWriter> make_syntenic_tsv_writer(std::ostream& out, const SyntenicRun& run);
std::unique_ptr<SyntenicWriter> make_syntenic_json_writer(std::ostream& out, const SyntenicRun& run);
}  // namespace gdp::io
