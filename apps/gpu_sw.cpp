// gpu-sw: pairwise alignment with affine gaps, every query against every target.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <limits>
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
#include "io/pairwise_writer.hpp"
#include "pairwise/pairwise.hpp"
#include "sw_strands.hpp"
#include "stats/statistics.hpp"

namespace {

constexpr const char* tool = "gpu-sw";

constexpr const char* description = R"(gpu-sw: exact pairwise alignment with affine gaps (Smith-Waterman/Gotoh,
Needleman-Wunsch, semi-global), every query against every target.

Inputs are FASTA or FASTQ, plain or gzip-compressed; '-' reads standard input.
Gap cost: a gap of length k costs OPEN + k*EXTEND (as in BLAST). EMBOSS and
parasail charge OPEN' + (k-1)*EXTEND; to get their scores pass
--gap-open OPEN'-EXTEND: parasail's -o 12 -e 1 is --gap-open 11 --gap-extend 1.
Defaults: DNA/RNA match 2, mismatch -3, open 5, extend 2;
          protein BLOSUM62, open 11, extend 1.
The pair format is EMBOSS's (Biopython's AlignIO "emboss" reads it). EMBOSS
needle charges no end gaps unless told to (-endweight); --mode global
charges them as any gap (needle -endweight with -endopen and -endextend
equal to -gapopen and -gapextend), --mode semiglobal leaves those before
and after the target's aligned part free (needle's default where the query
lies within the target).
Runs on the first GPU found (--device N for another, --cpu for the CPU
reference); put the shorter sequence first (query), the longer second.
--devices 0,1 (or all) spreads the work over several GPUs, the output the
same as one GPU's: a database search's targets, dealt by residues; the
pairs aligned; one long pair's local score pass, its target cut into a range
a GPU (a long alignment across a cut makes its range run again); one long
pair's full alignment (too large for one GPU's traceback) and global score
pass, chained over the GPUs, each handing its pieces' edges to the next. A
semi-global alignment of one pair runs on the first GPU listed.
Coordinates are 1-based and inclusive (PAF's: 0-based, half-open, as
minimap2's); CIGAR uses =/X/I/D (I: a query letter against a gap, D: a
target letter against a gap).
Nucleotide queries are searched on both strands by default (--strand): the
minus strand aligns the query's reverse complement against the target as
given. A minus hit's query coordinates count on the reverse complement in
pair, TSV and JSON (strand '-'); SAM flags it 16 with SEQ reverse
complemented; PAF gives them on the query as given. With --top K a query
keeps its K best over both strands (ties: target order, then plus first);
otherwise every target in order, plus then minus for each.
--format blast6 is BLAST's -outfmt 6 (qseqid sseqid pident length mismatch
gapopen qstart qend sstart send evalue bitscore) for local alignments, the
target file being the database (its residues and sequences). E-values and bit
scores use BLAST's published parameters for the matrix and gap costs
(nucleotides: Karlin-Altschul with BLAST's length adjustment, as blastn;
protein: with Spouge's finite-size correction, as blastp); for a scoring
system BLAST publishes none for, ungapped parameters computed from the matrix,
with a warning. --evalue E keeps hits of E-value <= E, after --top.
--checkpoint FILE saves a long pair's score pass on the GPU after each piece
of the target (about 10^14 cells) and, run again with the same inputs and
options, goes on from the last one. With --stop-after SECONDS the run stops
before a piece that would end past SECONDS, its work saved, and exits with
status 75 (a batch job's time limit: run the same command again to go on).
A full alignment on the GPU of a pair too long for the traceback's device
memory keeps rows of its score pass in host memory, or, where they would
take more than half of it, in a file under --tmpdir (default: the system's
temporary directory), removed as the run ends.

Examples:
  gpu-sw query.fa target.fa                      # local alignment, pair format
  gpu-sw --mode global --format sam q.fa t.fa > out.sam
  gpu-sw --score-only --format tsv reads.fa genome.fa.gz
  gpu-sw --matrix BLOSUM62 --gap-open 11 --gap-extend 1 prot1.fa prot2.fa
  gpu-sw --cpu --threads 16 --top 5 --format json queries.fa db.fa
  gpu-sw --device 1 --score-only --format tsv gene.fa chromosome.fa
  gpu-sw --devices all --top 10 --format blast6 proteins.fa uniprot.fa
  gpu-sw --devices 0,1 --score-only --strand plus --format tsv gene.fa chromosome.fa
  gpu-sw --mode semiglobal --top 1 --format paf reads.fq ref.fa > hits.paf
  gpu-sw --strand plus --format tsv primers.fa amplicons.fa
  gpu-sw --format blast6 --top 10 --evalue 1e-5 proteins.fa swissprot.fa
  gpu-sw --score-only --strand plus --checkpoint chr1.ckpt --stop-after 3500 chr1a.fa chr1b.fa
)";

struct SwOptions {
  std::string query_path, target_path;
  std::string mode = "local", format = "pair";
  std::string strand;  // empty: both for nucleotides, plus for protein
  gdp::app::ScoringFlags scoring;
  bool score_only = false;
  std::size_t top = 0;
  std::optional<double> evalue;
  std::string checkpoint;
  std::optional<double> stop_after;
  std::string tmpdir;
};

// --checkpoint's rules, those that need no input read.
void check_checkpoint_options(const SwOptions& o, gdp::pairwise::Mode mode) {
  if (o.stop_after && o.checkpoint.empty()) throw gdp::InputError("--stop-after needs --checkpoint FILE");
  if (o.checkpoint.empty()) return;
  if (!o.score_only) throw gdp::InputError("--checkpoint saves a score pass: it needs --score-only");
  if (mode == gdp::pairwise::Mode::semiglobal)
    throw gdp::InputError("--checkpoint: --mode local or global (a semiglobal pass keeps its last row)");
}

void run(const SwOptions& o, const gdp::app::CommonOptions& common, const std::string& cmdline) {
  namespace pw = gdp::pairwise;
  const auto started = std::chrono::steady_clock::now();
  const pw::Mode mode = pw::parse_mode(o.mode);
  pw::GpuTuning tuning;
  gdp::apply_tune(tuning, pw::gpu_tune_keys, common.tune);
  const gdp::io::PairFormat format = gdp::io::parse_pair_format(o.format);
  gdp::parse_alphabet(o.scoring.alphabet);  // bad names fail before the inputs are read
  if (!o.strand.empty()) pw::parse_strand(o.strand);
  if (gdp::io::needs_alignment(format) && o.score_only)
    throw gdp::InputError("--format " + o.format + " needs an alignment: use --format pair, tsv or json with --score-only");
  const bool blast6 = format == gdp::io::PairFormat::blast6;
  if (blast6 && o.score_only)
    throw gdp::InputError("blast6 needs an alignment: use --format tsv or json with --score-only");
  if ((blast6 || o.evalue) && mode != pw::Mode::local)
    throw gdp::InputError("E-values are for local alignments: --format blast6 and --evalue need --mode local");
  if (o.query_path == "-" && o.target_path == "-") throw gdp::InputError("only one input can be standard input");
  check_checkpoint_options(o, mode);

  gdp::TimingReport report;
  report.tool = tool;
  gdp::Timer timer;
  const gdp::SequenceFile queries = gdp::read_sequences(o.query_path);
  const gdp::SequenceFile targets = gdp::read_sequences(o.target_path);
  if (format == gdp::io::PairFormat::sam) gdp::io::check_sam_target_names(targets);
  const gdp::Alphabet alphabet = gdp::app::choose_alphabet(o.scoring, queries, targets);
  const gdp::ScoringScheme scheme = gdp::app::make_scheme(o.scoring, alphabet);
  std::int64_t longest_q = 0, longest_t = 0;
  const auto qranks = gdp::app::encode_all(queries, scheme, alphabet, longest_q);
  const auto tranks = gdp::app::encode_all(targets, scheme, alphabet, longest_t);
  const pw::Strand strand = gdp::app::choose_strand(o.strand, alphabet);
  gdp::app::ReverseComplements minus;
  if (strand != pw::Strand::plus) minus = gdp::app::reverse_complements(queries, scheme, alphabet);
  pw::check_score_range(longest_q, longest_t, scheme, mode, o.score_only);
  if (!o.checkpoint.empty()) {
    if (queries.records.size() != 1 || targets.records.size() != 1 || strand == pw::Strand::both)
      throw gdp::InputError("--checkpoint saves one pass: one query, one target, one strand (--strand plus or minus)");
    pw::check_checkpoint(o.checkpoint, strand == pw::Strand::minus ? minus.ranks[0] : qranks[0], tranks[0], scheme, mode);
  }
  std::optional<gdp::stats::SearchStatistics> statistics;
  if (blast6 || o.evalue) {
    const auto parameters = gdp::stats::search_parameters(scheme, gdp::is_nucleotide(alphabet));
    if (!parameters.gapped) spdlog::warn("E-values and bit scores are from {}", parameters.source);
    statistics.emplace(parameters, gdp::stats::Database{static_cast<std::int64_t>(targets.total_residues()),
                                                        static_cast<std::int64_t>(targets.records.size())});
  }
  // BLAST's default for blast6; no filter otherwise.
  const double max_evalue = o.evalue.value_or(blast6 ? 10.0 : std::numeric_limits<double>::infinity());
  report.add_phase("read", timer.seconds());

  // Chosen once the inputs are known to be good, so that a bad input gets
  // its one line on stderr and nothing else.
  const std::vector<int> devices = gdp::app::chosen_devices(common);
  const auto choice = gdp::app::choose_run_device(common, devices);
  if (devices.size() > 1 && mode == pw::Mode::semiglobal &&
      queries.records.size() * targets.records.size() * (strand == pw::Strand::both ? 2 : 1) == 1)
    spdlog::info("--devices: one pair's semi-global alignment runs on one GPU, the first listed");
  if (choice.use_gpu) {
    spdlog::debug("GPU {}: {}", choice.gpu.id, choice.gpu.name);
    report.add_phase("gpu-init", gdp::app::start_devices(devices.empty() ? std::vector<int>{choice.gpu.id} : devices));
  } else if (!choice.reason.empty())
    spdlog::info("{}", choice.reason);

  const int threads = common.thread_count();
  const double strands = strand == pw::Strand::both ? 2 : 1;
  const double cells =
      strands * static_cast<double>(queries.total_residues()) * static_cast<double>(targets.total_residues());
  gdp::Progress progress(tool, 0, !common.quiet);  // align_each_query sets the total
  pw::Options options;
  options.mode = mode;
  options.score_only = o.score_only;
  options.backend = choice.use_gpu ? pw::Backend::gpu
                    : threads > 1  ? pw::Backend::cpu_openmp
                                   : pw::Backend::cpu_scalar;
  options.threads = threads;
  options.device = choice.gpu.id;
  options.devices = devices;
  options.progress = &progress;
  options.tuning = tuning;
  options.checkpoint.path = o.checkpoint;
  options.tmpdir = o.tmpdir;
  if (o.stop_after) options.checkpoint.stop_at = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                              std::chrono::duration<double>(*o.stop_after));
  if (!o.checkpoint.empty() && !choice.use_gpu)
    spdlog::warn("--checkpoint: the pass runs on the CPU, which saves no checkpoint");
  std::vector<std::span<const std::uint8_t>> qspans(qranks.begin(), qranks.end()), tspans(tranks.begin(), tranks.end());
  std::vector<std::span<const std::uint8_t>> minus_spans(minus.ranks.begin(), minus.ranks.end());

  // Each query's results are written as soon as its pairs are done, in
  // query order, and flushed, so that a pipeline downstream starts at once.
  gdp::OutputFile out(common.output);
  const bool output_on_terminal = (common.output.empty() || common.output == "-") && isatty(STDOUT_FILENO);
  gdp::io::PairRun run{tool, cmdline, mode, o.score_only, &scheme, {}, strand, statistics ? &*statistics : nullptr};
  for (const auto& r : targets.records) run.targets.push_back(&r);
  auto writer = gdp::io::make_pair_writer(format, out.stream(), run);
  writer->begin();
  double write_seconds = 0;
  timer.restart();
  const auto write_query = [&](std::span<const pw::Hit> hits) {
    gdp::Timer write_timer;
    if (output_on_terminal) progress.clear();
    // Each query's best hit over its strands (the first of its top score) is
    // its primary result, the others secondary.
    std::size_t best = 0;
    for (std::size_t k = 0; k < hits.size(); ++k)
      if (hits[k].alignment.score > hits[best].alignment.score) best = k;
    for (std::size_t k = 0; k < hits.size(); ++k) {
      const pw::Hit& h = hits[k];
      const bool rc = h.reverse_strand;
      writer->write({rc ? &minus.records[h.query] : &queries.records[h.query], &targets.records[h.target],
                     rc ? minus.ranks[h.query] : qranks[h.query], tranks[h.target], h.alignment, k != best, rc});
    }
    out.stream().flush();
    write_seconds += write_timer.seconds();
  };
  // Hits above --evalue are dropped by their score, before they are aligned.
  std::optional<gdp::stats::EvalueCut> cut;
  pw::HitFilter below_evalue;
  if (statistics && max_evalue < std::numeric_limits<double>::infinity()) {
    std::vector<std::int64_t> query_lengths;
    for (const auto& q : qranks) query_lengths.push_back(static_cast<std::int64_t>(q.size()));
    cut.emplace(*statistics, max_evalue, query_lengths);
    below_evalue = [&](std::size_t q, std::size_t t, int score) {
      return cut->keeps(q, score, static_cast<std::int64_t>(tranks[t].size()));
    };
  }
  // A run stopped at --stop-after writes no output, but its report: the
  // cells it did and its seconds, for a batch job's accounting.
  const auto write_report_file = [&] {
    if (common.report.empty()) return;
    report.backend = std::string(pw::to_string(options.backend));
    if (choice.use_gpu) {
      const pw::GpuStats g = pw::gpu_stats();
      report.gpu = {{"passes", g.passes}, {"kernel_seconds", g.kernel_seconds},
                    {"traceback_kernel_seconds", g.traceback_seconds},
                    {"overflow_reruns", g.overflow_reruns},
                    {"database_chunks", g.database_chunks},
                    {"database_search_seconds", g.database_search_seconds},
                    {"peak_memory_bytes", static_cast<double>(g.peak_memory_bytes)}};
    }
    gdp::app::report_devices(report, choice.use_gpu, devices, choice.gpu.name);
    report.threads = threads;
    report.inputs = {{"queries", static_cast<double>(queries.records.size())},
                     {"query_strands", strands},
                     {"targets", static_cast<double>(targets.records.size())},
                     {"query_residues", static_cast<double>(queries.total_residues())},
                     {"target_residues", static_cast<double>(targets.total_residues())}};
    report.work = cells;
    if (!o.checkpoint.empty() && choice.use_gpu) {  // one pair, one strand: the columns this run did
      const pw::GpuStats g = pw::gpu_stats();
      const auto m = static_cast<double>(queries.total_residues()), n = static_cast<double>(targets.total_residues());
      const double end = g.stopped_at_column > 0 ? static_cast<double>(g.stopped_at_column) : n;
      report.gpu.emplace_back("resumed_from_column", static_cast<double>(g.resumed_from_column));
      report.gpu.emplace_back("stopped_at_column", static_cast<double>(g.stopped_at_column));
      report.work = m * (end - static_cast<double>(g.resumed_from_column));
    }
    gdp::write_report(report, common.report);
  };
  try {
    pw::align_each_query_on_strands(qspans, minus_spans, strand, tspans, scheme, options, o.top, write_query,
                                    below_evalue);
  } catch (const gdp::Stopped&) {
    report.add_phase("compute", timer.seconds() - write_seconds);
    write_report_file();
    throw;
  }
  writer->end();
  out.commit();
  if (!o.checkpoint.empty()) std::filesystem::remove(o.checkpoint);  // the pass is done and written
  report.add_phase("compute", timer.seconds() - write_seconds);
  report.add_phase("write", write_seconds);
  write_report_file();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{description, tool};
  app.get_formatter()->column_width(34);
  SwOptions o;
  gdp::app::CommonOptions common;
  app.add_option("query", o.query_path, "Query sequences (FASTA/FASTQ, .gz ok, '-' for stdin)")->required();
  app.add_option("target", o.target_path, "Target sequences (FASTA/FASTQ, .gz ok, '-' for stdin)")->required();
  app.add_option("--mode", o.mode, "local | global | semiglobal (every query letter aligned, target ends free)")
      ->capture_default_str();
  app.add_flag("--score-only", o.score_only, "Score and end coordinates only, in linear memory");
  app.add_option("--format", o.format, "pair | sam | tsv | json | paf | blast6 (BLAST -outfmt 6)")->capture_default_str();
  app.add_option("--strand", o.strand,
                 "both | plus | minus: the query strands searched (default: both for DNA/RNA, plus for protein)");
  gdp::app::add_scoring_options(app, o.scoring);
  app.add_option("--top", o.top, "Keep each query's K best hits, over its strands (default: all)")->check(gdp::app::at_least(1));
  app.add_option("--evalue", o.evalue, "Keep hits of E-value <= E, after --top (default: 10 for blast6, else all)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--checkpoint", o.checkpoint,
                 "One long pair's GPU score pass saved to FILE as it goes, and taken up from it when run again "
                 "(--score-only; removed once the result is written)");
  app.add_option("--stop-after", o.stop_after,
                 "With --checkpoint: stop, saved, before SECONDS have passed since the start (exit status 75)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--tmpdir", o.tmpdir,
                 "Where a long pair's full alignment keeps its saved rows when host memory is short "
                 "(default: the system's temporary directory)")
      ->check(CLI::ExistingDirectory);
  gdp::app::add_common_options(app, common);
  gdp::app::add_devices_option(
      app, common, "GPUs to spread the work over (a database's targets, the pairs, a long pair's passes)");
  const std::string cmdline = gdp::app::command_line(argc, argv);
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common, cmdline); });
}
