// gpu-fold: RNA secondary structure by Nussinov base-pair maximisation, on
// the GPU (the blocked algorithm for long records, many short records a
// launch) and the CPU engines (CPU1, CPU2, OMP2).
#include <string>
#include <string_view>
#include <vector>

#include "common/tool_main.hpp"
#include "core/build.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/report.hpp"
#include "core/sequence_reader.hpp"
#include "core/timer.hpp"
#include "core/tune.hpp"
#include "fold/fold.hpp"
#include "io/fold_writer.hpp"

namespace {

constexpr const char* tool = "gpu-fold";

constexpr const char* description = R"(gpu-fold: RNA secondary structure by Nussinov base-pair maximisation.

Each record of the input (FASTA or FASTQ, plain or gzip, '-' for standard
input) is folded to a structure with the most base pairs: A-U, G-C and G-U
(--no-gu drops the wobble pair), with at least --min-loop unpaired bases
inside each hairpin (default 3; --min-loop 1 is the dissertation's
recurrence). T is read as U; lower case is accepted.

Where a GPU is found, every record folds on it: records of 512 bases or
more one after another (the blocked algorithm: max-plus products of
128 x 128 blocks), shorter ones many a launch (one thread block each, its
table in shared memory). With --cpu, or without a GPU, every record folds
on the CPU, short ones many at once on the threads. --engine picks one
engine for every record: cpu1 (the naive recurrence), cpu2
(cache-efficient, a transposed copy), omp2 (cpu2 on all cores) or gpu.

Examples:
  gpu-fold rna.fa                         # dot-bracket, one record after another
  gpu-fold --format bpseq --min-loop 3 rna.fa
  gpu-fold --cpu --threads 16 big.fa
  gpu-fold --format tsv many_small.fa > structures.tsv
)";

struct FoldOptions {
  std::string input, format = "dotbracket", engine;
  int min_loop = 3;
  bool no_gu = false;
};

// Upper case A, C, G, U (T read as U); any other letter is an error naming
// the file and line.
std::string rna_of(const gdp::SequenceFile& file, std::size_t record) {
  std::string s = file.records[record].residues;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char& c = s[i];
    if (c == 'T') c = 'U';
    if (c != 'A' && c != 'C' && c != 'G' && c != 'U')
      throw gdp::InputError(file.display_name(), file.line_of(record, i),
                            "letter '" + std::string(1, c) + "' in '" + file.records[record].id +
                                "' is not an RNA base (A, C, G, U; T is read as U)");
  }
  return s;
}

void run(const FoldOptions& o, const gdp::app::CommonOptions& common) {
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
  const gdp::SequenceFile file = gdp::read_sequences(o.input, gdp::PlainLines::records);  // as RNAfold reads
  std::vector<std::string> rnas;
  for (std::size_t r = 0; r < file.records.size(); ++r) {
    if (file.records[r].residues.empty())
      throw gdp::InputError(file.display_name(), 0, "record '" + file.records[r].id + "' has no sequence");
    rnas.push_back(rna_of(file, r));
  }
  report.add_phase("read", timer.seconds());

  // Chosen once the inputs are known to be good.
  const auto choice = gdp::choose_device(common.cpu, common.device);
  if (all.engine == gdp::fold::Engine::gpu && !choice.use_gpu) {
    const std::string why = !gdp::have_cuda ? gdp::no_cuda_message : choice.reason;
    throw gdp::InputError("--engine gpu needs a GPU" + (why.empty() ? std::string() : ": " + why));
  }
  if (!choice.use_gpu && !choice.reason.empty()) spdlog::info("{}", choice.reason);
  all.use_gpu = choice.use_gpu;
  all.options.device = choice.use_gpu ? choice.gpu.id : 0;

  const std::vector<std::string_view> views(rnas.begin(), rnas.end());
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
    report.device = choice.use_gpu ? choice.gpu.name : gdp::cpu_name();
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
  app.add_option("input", o.input, "RNA sequences (FASTA/FASTQ, .gz ok, '-' for stdin)")->required();
  app.add_option("--format", o.format, "dotbracket | bpseq | ct | tsv | json")->capture_default_str();
  app.add_option("--min-loop", o.min_loop, "Unpaired bases inside a hairpin, at least")->capture_default_str();
  app.add_flag("--no-gu", o.no_gu, "No G-U wobble pairs");
  app.add_option("--engine", o.engine,
                 "cpu1 | cpu2 | omp2 | gpu for every record (default: gpu where a GPU is found; else omp2, "
                 "and cpu2 for records under 512 bases, many at once)");
  gdp::app::add_common_options(app, common);
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
