#pragma once
// One factory per format; make_pair_writer picks among them.
#include "io/pairwise_writer.hpp"

namespace gdp::io {
std::unique_ptr<PairWriter> make_emboss_pair_writer(std::ostream& out, const PairRun& run);
std::unique_ptr<PairWriter> make_sam_writer(std::ostream& out, const PairRun& run);
std::unique_ptr<PairWriter> make_tsv_writer(std::ostream& out, const PairRun& run);
std::unique_ptr<PairWriter> make_json_writer(std::ostream& out, const PairRun& run);
std::unique_ptr<PairWriter> make_paf_writer(std::ostream& out, const PairRun& run);
std::unique_ptr<PairWriter> make_blast_tabular_writer(std::ostream& out, const PairRun& run);
}  // namespace gdp::io
