// gpu-fold: RNA secondary structure by Nussinov base-pair maximisation, on
// the GPU (the blocked algorithm for long records, many short records a
// launch) and the CPU engines (CPU1, CPU2, OMP2); with --interact, the
// joint structure of two RNAs by BPMax.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "common/tool_main.hpp"
#include "core/build.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/progress.hpp"
#include "core/report.hpp"
#include "core/sequence_reader.hpp"
#include "core/timer.hpp"
#include "core/tune.hpp"
#include "fold/bpmax.hpp"
#include "fold/fold.hpp"
#include "io/fold_writer.hpp"
#include "io/interaction_writer.hpp"

namespace {

constexpr const char* tool = "gpu-fold";

constexpr const char* description = R"(gpu-fold: RNA secondary structure by Nussinov base-pair maximisation.

Each record of the input (FASTA or FASTQ, plain or gzip, '-' for standard
input) is folded to a structure with the most base pairs: A-U, G-C and G-U
(--no-gu drops the wobble pair), with at least --min-loop unpaired bases
inside each hairpin (default 3; --min-loop 1 is the dissertation's
recurrence). T is read as U; lower case is accepted; N and IUPAC's other
codes for unknown bases (R, Y, K, M, S, W, B, D, H, V) are bases that pair
with nothing. Lines without a '>' header are one sequence each, as RNAfold
reads them.

Where a GPU is found, every record folds on it: records of 512 bases or
more one after another (the blocked algorithm: max-plus products of
128 x 128 blocks), shorter ones many a launch (one thread block each, its
table in shared memory). --devices 0,1 (or all) spreads the records over
several GPUs, each to the least loaded, the output the same as on one.
With --cpu, or without a GPU, every record folds
on the CPU, short ones many at once on the threads. --engine picks one
engine for every record: cpu1 (the naive recurrence), cpu2
(cache-efficient, a transposed copy), omp2 (cpu2 on all cores) or gpu.

With --interact, two RNAs bind: the joint structure with the most
weighted pairs within and between the strands (BPMax: G-C 3, A-U 1, G-U
1.5, --weights GC,AU,GU to change them; hairpins of 3 unpaired bases at
least). Each record holds both strands as SEQ1&SEQ2 (RNAcofold's input),
or two files give record i of one with record i of the other. Formats:
dotbracket ('(' ')' within a strand, '[' on strand 1 with ']' on strand
2), pairs (1-based positions on each strand and the kind: inter, intra1,
intra2), tsv, json. It takes m^3 n^3 / 36 steps and about 2 m^2 n^2
bytes for strands of m <= n bases (the shorter strand goes first; among
structures of the best score, the one printed may differ from the
oracle's when strand 1 is the longer). --window W1,W2 (BPMaxW) keeps
only intervals of at most W1 + 1 bases of strand 1 and W2 + 1 of strand
2, so long RNAs fit (about m W1 n W2 cells): the score is then the best
binding site within such a pair of intervals, and the structure shows it
on the whole strands. Where a GPU is found it runs there (the max-plus
products of 128 x 128 blocks, in the GPU's memory); else, or with --cpu,
on the CPU threads: --engine cpu1 is the oracle, cpu2 the products' form
on one thread, omp2 (the default) on --threads.

Examples:
  gpu-fold rna.fa                         # dot-bracket, one record after another
  gpu-fold --format bpseq --min-loop 3 rna.fa
  gpu-fold --cpu --threads 16 big.fa
  gpu-fold --devices all many_long.fa     # the records spread over every GPU
  gpu-fold --format tsv many_small.fa > structures.tsv
  gpu-fold --interact pairs.fa            # each record: SEQ1&SEQ2
  gpu-fold --interact a.fa b.fa           # record i of a with record i of b
  gpu-fold --interact --format pairs --weights 3,2,1 duplex.fa
  gpu-fold --interact --window 150,150 srna.fa mrna.fa   # the best site of 151 x 151 bases
)";

struct FoldOptions {
  std::vector<std::string> inputs;
  std::string format = "dotbracket", engine, weights = "3,1,1.5", window;
  int min_loop = 3;
  bool no_gu = false, interact = false;
};

// Letters from .. from + length - 1 of a record as bases, upper case, T read
// as U: A, C, G, U, and IUPAC's N, R, Y, ... (fold::kUnpairedBases), which
// pair with nothing; any other letter is an error naming the file and line.
std::string bases_of(const gdp::SequenceFile& file, std::size_t record, std::size_t from, std::size_t length,
                     bool interact) {
  std::string s = file.records[record].residues.substr(from, length);
  for (std::size_t i = 0; i < s.size(); ++i) {
    char& c = s[i];
    if (c == 'T') c = 'U';
    if (!gdp::fold::is_rna_letter(c))
      throw gdp::InputError(file.display_name(), file.line_of(record, from + i),
                            "letter '" + std::string(1, c) + "' in '" + file.records[record].id +
                                "' is not an RNA base (A, C, G, U, or " + std::string(gdp::fold::kUnpairedBases) +
                                " for bases that pair with nothing; T is read as U" +
                                (c == '&' && !interact ? "; SEQ1&SEQ2 records are for --interact)" : ")"));
  }
  return s;
}

// A record to fold.
std::string rna_of(const gdp::SequenceFile& file, std::size_t record) {
  return bases_of(file, record, 0, file.records[record].residues.size(), false);
}

// One strand of an --interact record; an empty one is an error.
std::string strand_of(const gdp::SequenceFile& file, std::size_t record, std::size_t from, std::size_t length,
                      int which) {
  if (length == 0)
    throw gdp::InputError(file.display_name(), file.line_of(record, 0),
                          "record '" + file.records[record].id + "': strand " + std::to_string(which) + " is empty");
  return bases_of(file, record, from, length, true);
}

// Where --interact's tables go: host memory for the CPU engines (the
// oracle's larger), the GPU's for its engine.
struct TableMemory {
  bool gpu = false, oracle = false;
  double gpu_bytes = 0;  // the device's memory
  gdp::fold::InteractionWindow window;
};

// An --interact record whose tables would not fit is an error naming its
// file and line, and what would fit.
void check_interaction_memory(const gdp::io::InteractionRecord& r, const gdp::SequenceFile& file, std::size_t record,
                              const TableMemory& where) {
  const double available = where.gpu ? where.gpu_bytes : static_cast<double>(gdp::available_memory_bytes());
  const auto m = static_cast<long long>(r.strand1.size()), n = static_cast<long long>(r.strand2.size());
  const double need = where.gpu ? gdp::fold::interaction_gpu_bytes(m, n, where.window)
                                : gdp::fold::interaction_bytes(m, n, where.oracle, where.window);
  if (available <= 0 || need <= available) return;
  // About 2 s^2 l^2 bytes for strands of s <= l bases (the oracle twice that).
  const double per = where.oracle ? 4.0 : 2.0;
  const auto each = static_cast<long long>(std::pow(available / per, 0.25));
  const double shorter = static_cast<double>(std::min(m, n));
  const auto longer = static_cast<long long>(std::sqrt(available / (per * shorter * shorter)));
  char sizes[160];
  std::snprintf(sizes, sizeof sizes, "%.3g GB for %s, and %.3g GB %s", need / 1e9,
                where.gpu ? "the GPU engine's tables" : "the CPU engine's tables", available / 1e9,
                where.gpu ? "the GPU has" : "are available");
  const std::string fits = !where.window.whole() && !where.oracle
                               ? "a narrower --window would fit"
                               : "two strands of up to " + std::to_string(each) +
                                     " bases each would fit, or with the shorter one, a longer one of up to about " +
                                     std::to_string(longer) + (where.oracle ? "" : "; or use --window");
  throw gdp::InputError(file.display_name(), file.line_of(record, 0),
                        "record '" + r.id + "': strands of " + std::to_string(m) + " and " + std::to_string(n) +
                            " bases need about " + sizes + ": " + fits);
}

// The records of --interact: SEQ1&SEQ2 records from one file, or record i
// of the first file with record i of the second.
std::vector<gdp::io::InteractionRecord> interaction_records(const std::vector<std::string>& inputs,
                                                            const TableMemory& where) {
  std::vector<gdp::io::InteractionRecord> out;
  if (inputs.size() == 1) {
    const gdp::SequenceFile file = gdp::read_sequences(inputs[0], gdp::PlainLines::records, gdp::Ampersand::keep);
    for (std::size_t r = 0; r < file.records.size(); ++r) {
      const gdp::SequenceRecord& rec = file.records[r];
      const std::size_t amp = rec.residues.find('&');
      if (amp == std::string::npos || rec.residues.find('&', amp + 1) != std::string::npos)
        throw gdp::InputError(file.display_name(), file.line_of(r, 0),
                              "record '" + rec.id + "' must hold two strands as SEQ1&SEQ2 (one '&'), or give two files");
      out.push_back({rec.id, rec.description, strand_of(file, r, 0, amp, 1),
                     strand_of(file, r, amp + 1, rec.residues.size() - amp - 1, 2)});
      check_interaction_memory(out.back(), file, r, where);
    }
    return out;
  }
  const gdp::SequenceFile one = gdp::read_sequences(inputs[0], gdp::PlainLines::records);
  const gdp::SequenceFile two = gdp::read_sequences(inputs[1], gdp::PlainLines::records);
  if (one.records.size() != two.records.size())
    throw gdp::InputError(two.display_name(), 0,
                          "has " + std::to_string(two.records.size()) + " records and " + one.display_name() + " " +
                              std::to_string(one.records.size()) + ": --interact pairs record i of one with record i of the other");
  for (std::size_t r = 0; r < one.records.size(); ++r) {
    out.push_back({one.records[r].id + '&' + two.records[r].id, one.records[r].description,
                   strand_of(one, r, 0, one.records[r].residues.size(), 1),
                   strand_of(two, r, 0, two.records[r].residues.size(), 2)});
    check_interaction_memory(out.back(), one, r, where);
  }
  return out;
}

void run_interact(const FoldOptions& o, const gdp::app::CommonOptions& common) {
  const gdp::io::InteractionFormat format = gdp::io::parse_interaction_format(o.format);
  const gdp::fold::InteractionWeights weights = gdp::fold::parse_interaction_weights(o.weights);
  if (o.no_gu) throw gdp::InputError("--no-gu is not for --interact (see --weights)");
  if (!common.devices.empty()) throw gdp::InputError("--devices is not for --interact, which runs on one GPU (--device N)");
  // cpu1 is the oracle; cpu2 the products' form on one thread, omp2 on
  // all; gpu the default where a GPU is found, else omp2.
  const auto choice = gdp::choose_device(common.cpu, common.device);
  const gdp::fold::Engine engine = !o.engine.empty() ? gdp::fold::parse_engine(o.engine)
                                   : choice.use_gpu   ? gdp::fold::Engine::gpu
                                                      : gdp::fold::Engine::omp2;
  if (engine == gdp::fold::Engine::gpu && !choice.use_gpu) {
    const std::string why = !gdp::have_cuda ? gdp::no_cuda_message : choice.reason;
    throw gdp::InputError("--engine gpu needs a GPU" + (why.empty() ? std::string() : ": " + why));
  }
  if (!choice.use_gpu && !choice.reason.empty()) spdlog::info("{}", choice.reason);
  const bool on_gpu = engine == gdp::fold::Engine::gpu, oracle = engine == gdp::fold::Engine::cpu1;
  const int threads = engine == gdp::fold::Engine::omp2 ? common.thread_count() : 1;

  gdp::TimingReport report;
  report.tool = tool;
  gdp::Timer timer;
  const gdp::fold::InteractionWindow window =
      o.window.empty() ? gdp::fold::InteractionWindow{} : gdp::fold::parse_interaction_window(o.window);
  const TableMemory where{on_gpu, oracle, on_gpu ? static_cast<double>(choice.gpu.memory_bytes) : 0.0, window};
  const std::vector<gdp::io::InteractionRecord> records = interaction_records(o.inputs, where);
  report.add_phase("read", timer.seconds());
  if (on_gpu) {
    timer.restart();
    gdp::start_gpu(choice.gpu.id);
    report.add_phase("gpu-init", timer.seconds());
  }

  timer.restart();
  std::vector<gdp::fold::Interaction> results;
  gdp::fold::InteractionTiming gpu;
  double cells = 0, table_bytes = 0;
  // Progress: each record weighs its pairs of intervals (F's cells).
  const auto cells_of = [&](const gdp::io::InteractionRecord& r) {
    return gdp::fold::window_intervals(static_cast<long long>(r.strand1.size()), window.span1) *
           gdp::fold::window_intervals(static_cast<long long>(r.strand2.size()), window.span2);
  };
  double all_cells = 0;
  for (const gdp::io::InteractionRecord& r : records) all_cells += cells_of(r);
  gdp::Progress progress(tool, static_cast<std::uint64_t>(all_cells), !common.quiet);
  for (const gdp::io::InteractionRecord& r : records) {
    const auto share = static_cast<std::uint64_t>(cells_of(r));
    if (on_gpu) {
      if constexpr (gdp::have_cuda) {
        gdp::fold::InteractionTiming one;
        try {
          results.push_back(
              gdp::fold::interact_gpu(r.strand1, r.strand2, weights.pairs, choice.gpu.id, &one, window, &progress, share));
        } catch (const gdp::InputError& e) {  // more than the device has free
          throw gdp::InputError("record '" + r.id + "': " + e.what());
        }
        gpu.fill_seconds += one.fill_seconds;
        gpu.product_seconds += one.product_seconds;
        gpu.finish_seconds += one.finish_seconds;
        gpu.product_terms += one.product_terms;
        gpu.trace_seconds += one.trace_seconds;
        table_bytes = std::max(table_bytes, gdp::fold::interaction_gpu_bytes(static_cast<long long>(r.strand1.size()),
                                                                             static_cast<long long>(r.strand2.size()), window));
      }
    } else {
      results.push_back(oracle ? gdp::fold::interact_oracle(r.strand1, r.strand2, weights.pairs, window)
                               : gdp::fold::interact_products(r.strand1, r.strand2, weights.pairs, threads, window,
                                                              &progress, share));
      if (oracle) progress.add(share);
    }
    cells += static_cast<double>(share);
  }
  progress.clear();
  report.add_phase("compute", timer.seconds());
  if (on_gpu) {
    report.gpu.push_back({"fill_seconds", gpu.fill_seconds});        // device time, part of compute
    report.gpu.push_back({"product_seconds", gpu.product_seconds});  // of fill: the max-plus products
    report.gpu.push_back({"finish_seconds", gpu.finish_seconds});    // of fill: the blocks' anti-diagonals
    report.gpu.push_back({"product_terms", gpu.product_terms});      // max-plus terms the products computed
    report.gpu.push_back({"trace_seconds", gpu.trace_seconds});      // with the tiles it copied, part of compute
    report.gpu.push_back({"table_bytes", table_bytes});              // the largest record's tables in device memory
  }

  timer.restart();
  gdp::OutputFile out(common.output);
  gdp::io::write_interaction_header(format, out.stream());
  for (std::size_t r = 0; r < records.size(); ++r)
    gdp::io::write_interaction(format, out.stream(), records[r], results[r], weights.unit);
  out.commit();
  report.add_phase("write", timer.seconds());

  if (!common.report.empty()) {
    report.backend = std::string(gdp::fold::to_string(engine));
    report.device = on_gpu ? choice.gpu.name : gdp::cpu_name();
    report.threads = threads;
    report.inputs = {{"records", static_cast<double>(records.size())}};
    report.work = cells;
    report.work_unit = "cells";
    gdp::write_report(report, common.report);
  }
}

void run(const FoldOptions& o, const gdp::app::CommonOptions& common) {
  if (o.interact) return run_interact(o, common);
  if (!o.window.empty()) throw gdp::InputError("--window is for --interact");
  if (o.inputs.size() != 1) throw gdp::InputError("two inputs are for --interact; fold one file of records");
  const gdp::io::FoldFormat format = gdp::io::parse_fold_format(o.format);
  gdp::fold::AllOptions all;
  if (!o.engine.empty()) all.engine = gdp::fold::parse_engine(o.engine);
  if (o.min_loop < 0) throw gdp::InputError("--min-loop takes 0 or more");
  all.options.rules = {!o.no_gu, o.min_loop};
  all.options.threads = common.thread_count();
  gdp::apply_tune(all.options.tuning, gdp::fold::gpu_tune_keys, common.tune);

  gdp::TimingReport report;
  report.tool = tool;
  gdp::Timer timer;
  // As RNAfold reads; SEQ1&SEQ2 records are for --interact.
  const gdp::SequenceFile file = gdp::read_sequences(o.inputs[0], gdp::PlainLines::records, gdp::Ampersand::keep);
  std::vector<std::string> rnas;
  for (std::size_t r = 0; r < file.records.size(); ++r) {
    if (file.records[r].residues.empty())
      throw gdp::InputError(file.display_name(), 0, "record '" + file.records[r].id + "' has no sequence");
    rnas.push_back(rna_of(file, r));
  }
  report.add_phase("read", timer.seconds());

  // Chosen once the inputs are known to be good.
  const auto choice = gdp::choose_device(common.cpu, common.device);
  all.devices = gdp::app::chosen_devices(common);
  if (!all.devices.empty() && all.engine && all.engine != gdp::fold::Engine::gpu)
    throw gdp::InputError("--devices folds on the GPU: leave --engine out, or give --engine gpu");
  if (all.engine == gdp::fold::Engine::gpu && !choice.use_gpu) {
    const std::string why = !gdp::have_cuda ? gdp::no_cuda_message : choice.reason;
    throw gdp::InputError("--engine gpu needs a GPU" + (why.empty() ? std::string() : ": " + why));
  }
  if (!choice.use_gpu && !choice.reason.empty()) spdlog::info("{}", choice.reason);
  all.use_gpu = choice.use_gpu;
  all.options.device = choice.use_gpu ? choice.gpu.id : 0;
  if (!all.devices.empty()) {  // the records spread over these GPUs
    all.use_gpu = true;
    all.options.device = all.devices.front();
  }

  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
  gdp::Progress progress(tool, 0, !common.quiet);  // fold_all sets the total
  all.options.progress = &progress;
  gdp::fold::AllResult folded;
  try {
    folded = gdp::fold::fold_all(views, all);
  } catch (const gdp::fold::RecordError& error) {  // too long for the device: name the record
    throw gdp::InputError(file.display_name(), file.line_of(error.record, 0),
                          "record '" + file.records[error.record].id + "': " + error.what());
  }
  if (folded.gpu_started) report.add_phase("gpu-init", folded.gpu_init_seconds);
  report.add_phase("compute", folded.compute_seconds);
  const gdp::fold::FoldTiming& gpu = folded.gpu;
  if (gpu.fill_seconds > 0) report.gpu.push_back({"fill_seconds", gpu.fill_seconds});  // device time, part of compute
  if (gpu.fill_seconds > 0) report.gpu.push_back({"copy_seconds", gpu.copy_seconds});  // the tables to the host, part of compute
  if (gpu.fill_seconds > 0) report.gpu.push_back({"trace_seconds", gpu.trace_seconds});  // on the CPU, of the records folded on the GPU

  progress.clear();
  timer.restart();
  gdp::OutputFile out(common.output);
  gdp::io::write_fold_header(format, out.stream());
  for (std::size_t r = 0; r < rnas.size(); ++r)
    gdp::io::write_fold(format, out.stream(), file.records[r].id, file.records[r].description, rnas[r],
                        folded.structures[r]);
  out.commit();
  report.add_phase("write", timer.seconds());

  if (!common.report.empty()) {
    report.backend = folded.backend;
    gdp::app::report_devices(report, all.use_gpu, all.devices, choice.gpu.name);
    report.threads = all.options.threads;
    report.inputs = {{"records", static_cast<double>(rnas.size())},
                     {"bases", static_cast<double>(file.total_residues())}};
    report.work = folded.operations;
    report.work_unit = "operations";
    gdp::write_report(report, common.report);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{description, tool};
  app.get_formatter()->column_width(34);
  FoldOptions o;
  gdp::app::CommonOptions common;
  app.add_option("inputs", o.inputs, "RNA sequences (FASTA/FASTQ, .gz ok, '-' for stdin); two files with --interact")
      ->required()
      ->expected(1, 2);
  app.add_option("--format", o.format, "dotbracket | bpseq | ct | tsv | json; with --interact dotbracket | pairs | tsv | json")
      ->capture_default_str();
  app.add_flag("--interact", o.interact, "Two RNAs binding (BPMax): records SEQ1&SEQ2, or two files");
  app.add_option("--weights", o.weights, "--interact's pair weights GC,AU,GU")->capture_default_str();
  app.add_option("--window", o.window, "--interact on intervals of at most W1 + 1 and W2 + 1 bases: W1,W2");
  app.add_option("--min-loop", o.min_loop, "Unpaired bases inside a hairpin, at least")->capture_default_str();
  app.add_flag("--no-gu", o.no_gu, "No G-U wobble pairs");
  app.add_option("--engine", o.engine,
                 "cpu1 | cpu2 | omp2 | gpu for every record (default: gpu where a GPU is found; else omp2, "
                 "and cpu2 for records under 512 bases, many at once)");
  gdp::app::add_common_options(app, common);
  gdp::app::add_devices_option(app, common, "GPUs to spread the records over");
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
