// gpu-syntenic: syntenic alignment (Huang-Chao), every query against every target.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "common/scoring_flags.hpp"
#include "common/tool_main.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/progress.hpp"
#include "core/report.hpp"
#include "core/scoring.hpp"
#include "core/sequence_reader.hpp"
#include "core/timer.hpp"
#include "core/tune.hpp"
#include "io/syntenic_writer.hpp"
#include "syntenic/syntenic.hpp"

namespace {

constexpr const char* tool = "gpu-syntenic";

constexpr const char* description = R"(gpu-syntenic: syntenic alignment (Huang and Chao), every query against every
target.

A syntenic alignment is a global alignment that may leave long stretches of
either sequence unaligned: a chain of matching regions (columns of two
letters, or of a letter against a gap) and difference blocks (letters of one
sequence or of both, left unaligned: what was gained, lost or replaced
between two related regions). Every letter of both sequences is in a column
or a block. A gap of length k costs OPEN + k*EXTEND (as in BLAST; EMBOSS and
parasail charge OPEN' + (k-1)*EXTEND, so pass --gap-open OPEN'-EXTEND); each
difference block costs the block penalty D, whatever its length.
Ends (--ends): charged (the default) also charges D at each end of the
alignment that is not a block, so an alignment of k matching regions always
pays (k+1)*D and unaligned ends cost nothing more than aligned ones; plain
charges the blocks only.
Defaults: DNA/RNA match 2, mismatch -3, open 5, extend 2, block penalty 40;
          protein BLOSUM62, open 11, extend 1, block penalty 50.
The block penalty defaults are about the score of 20 identical bases (+2
each), or of 10 identical residues under BLOSUM62 (about +5 each): a
matching region between two blocks is kept only when it scores more.
Inputs are FASTA or FASTQ, plain or gzip-compressed; '-' reads standard input.
Runs on the first GPU found (--device N for another, --cpu for the CPU
reference); what the GPU does not do yet runs on the CPU threads.
--devices 0,1 (or all) spreads the pairs over several GPUs, each to the
next one free, the output the same bytes as one GPU's. One long pair's
--score-only pass is chained over the GPUs (each takes pieces of the
target in turn and hands their last column to the next); its alignment
runs its passes on the first two GPUs side by side, or on the first
alone where it fits the chunked traceback there.
Coordinates are 1-based and inclusive (PAF: 0-based starts, as PAF has
them); in TSV and JSON a block's range of 0 letters is start = end + 1.
CIGAR uses =/X/I/D (I: a query letter against a gap, D: a target letter
against a gap), in PAF's cg:Z too.

Examples:
  gpu-syntenic human_12p13.fa mouse_chr6.fa            # listing (default)
  gpu-syntenic --format paf region.fa chromosome.fa > syn.paf
  gpu-syntenic --score-only --format tsv a.fa b.fa
  gpu-syntenic --cpu --threads 16 --block-penalty 80 a.fa b.fa
  gpu-syntenic --ends plain --format json -o syn.jsonl a.fa b.fa
  gpu-syntenic --devices all --format paf regions.fa contigs.fa
)";

struct SyntenicOptions {
  std::string query_path, target_path;
  std::string format = "listing", ends = "charged";
  gdp::app::ScoringFlags scoring;
  std::optional<int> block_penalty;
  bool score_only = false;
};

// --block-penalty if given, else the alphabet's default.
int block_penalty_of(const SyntenicOptions& o, gdp::Alphabet alphabet) {
  namespace syn = gdp::syntenic;
  if (!o.block_penalty)
    return gdp::is_nucleotide(alphabet) ? syn::default_block_penalty_nucleotide : syn::default_block_penalty_protein;
  return *o.block_penalty;
}

// InputError for a --block-penalty outside 0..max_block_penalty (before the
// inputs are read; the engine's check_score_range checks it again).
void check_block_penalty(const std::optional<int>& d) {
  if (d && (*d < 0 || *d > gdp::syntenic::max_block_penalty))
    throw gdp::InputError("--block-penalty must be 0 to " + std::to_string(gdp::syntenic::max_block_penalty) +
                          ", not " + std::to_string(*d));
}

void run(const SyntenicOptions& o, const gdp::app::CommonOptions& common, const std::string& cmdline) {
  namespace syn = gdp::syntenic;
  syn::Options options;
  gdp::apply_tune(options.tuning, gdp::pairwise::gpu_tune_keys, common.tune);  // the GPU score kernel's, as gpu-sw's
  const gdp::io::SyntenicFormat format = gdp::io::parse_syntenic_format(o.format);
  const syn::Ends ends = syn::parse_ends(o.ends);
  gdp::parse_alphabet(o.scoring.alphabet);  // a bad name fails before the inputs are read
  check_block_penalty(o.block_penalty);
  if (o.score_only && gdp::io::needs_alignment(format))
    throw gdp::InputError("--format " + o.format + " needs an alignment: use --format listing, tsv or json with --score-only");
  if (o.query_path == "-" && o.target_path == "-") throw gdp::InputError("only one input can be standard input");

  gdp::TimingReport report;
  report.tool = tool;
  gdp::Timer timer;
  const gdp::SequenceFile queries = gdp::read_sequences(o.query_path);
  const gdp::SequenceFile targets = gdp::read_sequences(o.target_path);
  const gdp::Alphabet alphabet = gdp::app::choose_alphabet(o.scoring, queries, targets);
  const gdp::ScoringScheme scheme = gdp::app::make_scheme(o.scoring, alphabet);
  std::int64_t longest_q = 0, longest_t = 0;
  const auto qranks = gdp::app::encode_all(queries, scheme, alphabet, longest_q);
  const auto tranks = gdp::app::encode_all(targets, scheme, alphabet, longest_t);
  options.ends = ends;
  options.block_penalty = block_penalty_of(o, alphabet);
  options.score_only = o.score_only;
  syn::check_score_range(longest_q, longest_t, scheme, options);
  report.add_phase("read", timer.seconds());

  // Chosen once the inputs are known to be good, so that a bad input gets
  // its one line on stderr and nothing else.
  const std::vector<int> devices = gdp::app::chosen_devices(common);
  const auto choice = gdp::app::choose_run_device(common, devices);
  if (choice.use_gpu) {
    spdlog::debug("GPU {}: {}", choice.gpu.id, choice.gpu.name);
    report.add_phase("gpu-init", gdp::app::start_devices(devices.empty() ? std::vector<int>{choice.gpu.id} : devices));
  } else if (!choice.reason.empty())
    spdlog::info("{}", choice.reason);

  const int threads = common.thread_count();
  const double cells = static_cast<double>(queries.total_residues()) * static_cast<double>(targets.total_residues());
  // A full alignment counts twice its cells: the score pass, then the traceback.
  gdp::Progress progress(tool, static_cast<std::uint64_t>(cells) * (o.score_only ? 1 : 2), !common.quiet);
  // Backend::gpu: the engine runs on the CPU threads what it has no GPU
  // path for, and the pairs too small for a kernel launch.
  options.backend = choice.use_gpu ? syn::Backend::gpu
                    : threads > 1  ? syn::Backend::cpu_openmp
                                   : syn::Backend::cpu_scalar;
  options.threads = threads;
  options.device = choice.gpu.id;
  options.devices = devices;
  options.progress = &progress;
  const std::vector<syn::Residues> qspans(qranks.begin(), qranks.end()), tspans(tranks.begin(), tranks.end());
  timer.restart();
  const std::vector<syn::Hit> hits = syn::align_all(qspans, tspans, scheme, options);
  report.add_phase("compute", timer.seconds());

  timer.restart();
  gdp::OutputFile out(common.output);
  const gdp::io::SyntenicRun run{tool, cmdline, &scheme, ends, options.block_penalty, o.score_only};
  auto writer = gdp::io::make_syntenic_writer(format, out.stream(), run);
  writer->begin();
  for (const syn::Hit& h : hits)
    writer->write({queries.records[h.query], targets.records[h.target], qranks[h.query], tranks[h.target], h.alignment});
  writer->end();
  out.commit();
  report.add_phase("write", timer.seconds());

  if (!common.report.empty()) {
    // With a GPU where nothing ran on it (small pairs, or alignments), the
    // CPU's backend is what ran.
    const syn::GpuStats g = syn::gpu_stats();
    const bool ran_on_gpu = choice.use_gpu && g.passes > 0;
    const syn::Backend ran = ran_on_gpu || !choice.use_gpu ? options.backend
                             : threads > 1                 ? syn::Backend::cpu_openmp
                                                           : syn::Backend::cpu_scalar;
    report.backend = std::string(syn::to_string(ran));
    if (ran_on_gpu) {
      report.gpu = {{"passes", g.passes},
                    {"kernel_seconds", g.kernel_seconds},
                    {"peak_memory_bytes", static_cast<double>(g.peak_memory_bytes)}};
    }
    gdp::app::report_devices(report, ran_on_gpu, devices, choice.gpu.name);
    report.threads = threads;
    report.inputs = {{"queries", static_cast<double>(queries.records.size())},
                     {"targets", static_cast<double>(targets.records.size())},
                     {"query_residues", static_cast<double>(queries.total_residues())},
                     {"target_residues", static_cast<double>(targets.total_residues())}};
    report.work = cells;
    gdp::write_report(report, common.report);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{description, tool};
  app.get_formatter()->column_width(34);
  SyntenicOptions o;
  gdp::app::CommonOptions common;
  app.add_option("query", o.query_path, "Query sequences (FASTA/FASTQ, .gz ok, '-' for stdin)")->required();
  app.add_option("target", o.target_path, "Target sequences (FASTA/FASTQ, .gz ok, '-' for stdin)")->required();
  namespace syn = gdp::syntenic;
  app.add_option("--block-penalty", o.block_penalty,
                 "Cost D of a difference block, 0 to " + std::to_string(syn::max_block_penalty) + " (default " +
                     std::to_string(syn::default_block_penalty_nucleotide) + " DNA, " +
                     std::to_string(syn::default_block_penalty_protein) + " protein)");
  app.add_option("--ends", o.ends, "charged (D at an end that is not a block) | plain")->capture_default_str();
  app.add_flag("--score-only", o.score_only, "Scores only, in linear memory (listing, tsv and json)");
  app.add_option("--format", o.format, "listing | paf | tsv | json")->capture_default_str();
  gdp::app::add_scoring_options(app, o.scoring);
  gdp::app::add_common_options(app, common);
  gdp::app::add_devices_option(app, common, "GPUs to spread the pairs (or one pair's passes) over");
  const std::string cmdline = gdp::app::command_line(argc, argv);
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common, cmdline); });
}
