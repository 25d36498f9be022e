// gpu-fold: RNA secondary structure by Nussinov base-pair maximisation. This
// version folds on the CPU (CPU1, CPU2, OMP2); the GPU's blocked algorithm
// comes with the next version.
#include <string>

#include "common/tool_main.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/output_file.hpp"
#include "core/report.hpp"
#include "core/sequence_reader.hpp"
#include "core/timer.hpp"
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

This version folds on the CPU: --engine cpu1 (the naive recurrence), cpu2
(cache-efficient, a transposed copy) or omp2 (cpu2 on all cores, the
default). The GPU's blocked algorithm comes with the next version.

Examples:
  gpu-fold rna.fa                         # dot-bracket, one record after another
  gpu-fold --format bpseq --min-loop 3 rna.fa
  gpu-fold --threads 16 big.fa
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
  const int threads = common.thread_count();
  const gdp::fold::Engine engine = !o.engine.empty() ? gdp::fold::parse_engine(o.engine)
                                   : threads > 1    ? gdp::fold::Engine::omp2
                                                    : gdp::fold::Engine::cpu2;
  if (o.min_loop < 0) throw gdp::InputError("--min-loop takes 0 or more");
  const gdp::fold::Rules rules{!o.no_gu, o.min_loop};

  gdp::TimingReport report;
  report.tool = tool;
  gdp::Timer timer;
  const gdp::SequenceFile file = gdp::read_sequences(o.input);
  std::vector<std::string> rnas;
  for (std::size_t r = 0; r < file.records.size(); ++r) {
    if (file.records[r].residues.empty())
      throw gdp::InputError(file.display_name(), 0, "record '" + file.records[r].id + "' has no sequence");
    rnas.push_back(rna_of(file, r));
  }
  report.add_phase("read", timer.seconds());

  gdp::app::run_on_cpu_for_now(tool, common);

  timer.restart();
  std::vector<gdp::fold::Structure> structures;
  double work = 0;
  for (const std::string& s : rnas) {
    structures.push_back(gdp::fold::fold_rna(s, rules, engine, threads));
    const double n = static_cast<double>(s.size());
    work += n * n * n / 6;  // the splits of every cell
  }
  report.add_phase("compute", timer.seconds());

  timer.restart();
  gdp::OutputFile out(common.output);
  gdp::io::write_fold_header(format, out.stream());
  for (std::size_t r = 0; r < rnas.size(); ++r)
    gdp::io::write_fold(format, out.stream(), file.records[r].id, rnas[r], structures[r]);
  out.commit();
  report.add_phase("write", timer.seconds());

  if (!common.report.empty()) {
    report.backend = std::string(gdp::fold::to_string(engine));
    report.device = gdp::cpu_name();
    report.threads = threads;
    report.inputs = {{"records", static_cast<double>(rnas.size())},
                     {"bases", static_cast<double>(file.total_residues())}};
    report.work = work;
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
  app.add_option("--engine", o.engine, "cpu1 | cpu2 | omp2 (default: omp2, or cpu2 on one thread)");
  gdp::app::add_common_options(app, common);
  return gdp::app::tool_main(tool, app, argc, argv, common, [&] { run(o, common); });
}
