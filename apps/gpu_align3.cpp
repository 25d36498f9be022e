// gpu-align3: the optimal alignment of three sequences (sum of pairs, linear gaps).
#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include "align3/align3.hpp"
#include "align3/cuda/gpu_pass.hpp"
#include "align3_inputs.hpp"
#include "align3_memory.hpp"
#include "common/scoring_flags.hpp"
#include "common/tool_main.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/progress.hpp"
#include "core/report.hpp"
#include "core/scoring.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"
#include "io/align3_writer.hpp"

namespace {

constexpr const char* tool = "gpu-align3";

constexpr const char* description = R"(gpu-align3: the optimal alignment of three sequences (sum-of-pairs score,
linear gaps).

Every column holds a letter or a gap '-' of each sequence (never three
gaps) and scores, over its three pairs of rows, the substitution score of
two letters, -g for a letter against a gap, and 0 for two gaps; the
alignment written has the best total of all (dynamic programming over the
|a| x |b| x |c| cube of cells).
Defaults: DNA/RNA match 2, mismatch -3, gap 4; protein BLOSUM62, gap 8.
A gap costs g a letter, with no opening cost. The defaults make a letter
against a gap cost more than half what a mismatched pair costs, so that
two sequences equal but for a letter align it as a mismatch rather than as
two gaps; 8 under BLOSUM62 is the linear gap cost of MSA programs.
Inputs: one file of three records, or three files of one record each;
FASTA or FASTQ, plain or gzip-compressed; '-' reads standard input.
Memory: the score on several threads keeps 4 planes of |a| x |b| 32-bit
scores, on one thread (--threads 1) 2 planes of |b| x |c|; an alignment
about 2 planes of |a| x |b| and 2 of |b| x |c| (Hirschberg's division in
three dimensions). Inputs too large for the memory available are refused
before the run.
Formats: fasta (default: the three rows, 60 columns a line), clustal (with
Clustal's conservation line), tsv and json (the score and the number of
columns; with --score-only the score alone).
With a GPU, cubes of 2^24 cells and more run there; smaller ones on the
CPU threads. An alignment there keeps where the best paths enter each
chunk of the cube on the device, about 0.4 bytes a cell (three
5,000-letter sequences: 47 GB), and divides the cube in two (Hirschberg)
only until that fits in the GPU memory free. --devices 0,1 runs the score
as two half passes side by side, one a GPU, meeting in the middle layer
(and so each division of an alignment); the result is the same as on one
GPU.

Examples:
  gpu-align3 trio.fa                      # three records -> aligned FASTA
  gpu-align3 a.fa b.fa c.fa               # one record from each file
  gpu-align3 --format clustal trio.fa
  gpu-align3 --score-only --format tsv trio.fa
  gpu-align3 --cpu --threads 16 --matrix BLOSUM62 --gap 8 prot3.fa
  gpu-align3 --devices 0,1 --score-only long3.fa
)";

// Runs this many cells or more say when they start and end (on a terminal).
constexpr double long_run_cells = 1e10;

struct Align3Options {
  std::vector<std::string> inputs;
  std::string format = "fasta";
  gdp::app::ScoringFlags scoring;
  std::optional<int> gap;
  bool score_only = false;
};

// InputError for a --gap outside 0..max_gap (before the inputs are read).
void check_gap(const std::optional<int>& g) {
  if (g && (*g < 0 || *g > gdp::align3::max_gap))
    throw gdp::InputError("--gap must be 0 to " + std::to_string(gdp::align3::max_gap) + ", not " + std::to_string(*g));
}

void run(const Align3Options& o, const gdp::app::CommonOptions& common) {
  namespace a3 = gdp::align3;
  const gdp::io::Align3Format format = gdp::io::parse_align3_format(o.format);
  gdp::parse_alphabet(o.scoring.alphabet);  // a bad name fails before the inputs are read
  check_gap(o.gap);
  if (o.score_only && gdp::io::needs_alignment(format))
    throw gdp::InputError("--format " + o.format + " needs an alignment: use --format tsv or json with --score-only");

  gdp::TimingReport report;
  report.tool = tool;
  gdp::Timer timer;
  const gdp::app::Trio trio = gdp::app::read_trio(o.inputs);
  const gdp::Alphabet alphabet = gdp::app::choose_alphabet(o.scoring, trio.file_list());
  const gdp::ScoringScheme scheme = gdp::app::make_scheme(o.scoring, alphabet);  // its gap costs go unused
  std::vector<std::uint8_t> ranks[3];
  for (std::size_t which = 0; which < 3; ++which)
    ranks[which] = gdp::encode(trio.file(which), trio.index[which], scheme, alphabet);
  const bool nucleotide = gdp::is_nucleotide(alphabet);
  const int gap = o.gap.value_or(nucleotide ? a3::default_gap_nucleotide : a3::default_gap_protein);
  const std::int64_t m = static_cast<std::int64_t>(ranks[0].size()), n = static_cast<std::int64_t>(ranks[1].size()),
                     p = static_cast<std::int64_t>(ranks[2].size());
  a3::check_score_range(m, n, p, scheme, gap);
  const int threads = common.thread_count();
  gdp::app::check_align3_memory(m, n, p, o.score_only, threads > 1, gdp::available_memory_bytes());
  report.add_phase("read", timer.seconds());

  // Chosen once the inputs are known to be good, so that a bad input gets
  // its one line on stderr and nothing else.
  std::vector<int> devices = gdp::app::chosen_devices(common);
  if (devices.size() > 2) {
    spdlog::info("--devices: gpu-align3 runs on two GPUs, the first two listed");
    devices.resize(2);
  }
  const auto choice = gdp::app::choose_run_device(common, devices);
  if (choice.use_gpu) {
    spdlog::debug("GPU {}: {}", choice.gpu.id, choice.gpu.name);
    gdp::app::start_devices(devices.empty() ? std::vector<int>{choice.gpu.id} : devices);
  } else if (!choice.reason.empty()) {
    spdlog::info("{}", choice.reason);
  }

  a3::Options options;
  options.gap = gap;
  options.score_only = o.score_only;
  options.backend = choice.use_gpu ? a3::Backend::gpu : threads > 1 ? a3::Backend::cpu_openmp : a3::Backend::cpu_scalar;
  options.threads = threads;
  options.device = choice.gpu.id;
  options.devices = devices;
  const double cells = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(p);
  const bool announce = cells >= long_run_cells && isatty(STDERR_FILENO);
  if (announce) spdlog::info("aligning {} x {} x {} letters ({:.3g} cells) on {} thread(s)", m, n, p, cells, threads);
  // The cube's cells, twice for an alignment (a3::Options::progress).
  const double cube = static_cast<double>(m + 1) * static_cast<double>(n + 1) * static_cast<double>(p + 1);
  gdp::Progress progress(tool, static_cast<std::uint64_t>(cube) * (o.score_only ? 1 : 2), !common.quiet);
  options.progress = &progress;
  timer.restart();
  const a3::Alignment alignment = a3::align(ranks[0], ranks[1], ranks[2], scheme, options);
  progress.clear();
  if (!o.score_only && a3::rescore(alignment, ranks[0], ranks[1], ranks[2], scheme, gap) != alignment.score)
    throw std::logic_error("the alignment does not re-score to its score");
  report.add_phase("compute", timer.seconds());
  if (announce) spdlog::info("done in {:.1f} s", report.phases.back().second);

  timer.restart();
  gdp::OutputFile out(common.output);
  const gdp::io::Align3Run run{tool, gdp::version, &scheme, nucleotide, gap, o.score_only};
  gdp::io::write_align3(format, out.stream(), run,
                        {{&trio.record(0), &trio.record(1), &trio.record(2)}, alignment});
  out.commit();
  report.add_phase("write", timer.seconds());

  if (!common.report.empty()) {
    // What ran: a GPU run whose cubes were all too small for it ran on the CPU threads.
    const a3::GpuStats g = a3::gpu_stats();
    const bool ran_on_gpu = options.backend == a3::Backend::gpu && g.passes > 0;
    const a3::Backend ran = ran_on_gpu || options.backend != a3::Backend::gpu
                                ? options.backend
                                : threads > 1 ? a3::Backend::cpu_openmp : a3::Backend::cpu_scalar;
    report.backend = std::string(a3::to_string(ran));
    report.threads = ran == a3::Backend::cpu_scalar ? 1 : threads;
    if (ran_on_gpu) report.gpu = {{"passes", g.passes}, {"kernel_seconds", g.kernel_seconds}};
    gdp::app::report_devices(report, ran_on_gpu, devices, choice.gpu.name);
    report.inputs = {{"a_residues", static_cast<double>(m)},
                     {"b_residues", static_cast<double>(n)},
                     {"c_residues", static_cast<double>(p)}};
    report.work = cells;
    gdp::write_report(report, common.report);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{description, tool};
  app.get_formatter()->column_width(34);
  Align3Options o;
  gdp::app::CommonOptions common;
  app.add_option("inputs", o.inputs,
                 "One file of three records, or three files of one record each (FASTA/FASTQ, .gz ok, '-' for stdin)")
      ->required();
  namespace a3 = gdp::align3;
  app.add_option("--gap", o.gap,
                 "Cost g of a letter against a gap, 0 to " + std::to_string(a3::max_gap) + " (default " +
                     std::to_string(a3::default_gap_nucleotide) + " DNA, " + std::to_string(a3::default_gap_protein) +
                     " protein)");
  app.add_flag("--score-only", o.score_only, "The score alone, no alignment (tsv and json)");
  app.add_option("--format", o.format, "fasta | clustal | tsv | json")->capture_default_str();
  gdp::app::add_substitution_options(app, o.scoring);
  gdp::app::add_common_options(app, common);
  gdp::app::add_devices_option(app, common, "GPUs to run the passes on, two at most");
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
