#pragma once
// NCBI BLAST's published Karlin-Altschul parameters of gapped local
// alignment, transcribed from blast_stat.c (NCBI C++ Toolkit,
// src/algo/blast/core/blast_stat.c: blosum45_values .. pam70_values and
// blastn_values_1_5 .. blastn_values_5_4). Gap costs are BLAST's: a gap of
// length k costs open + k * extend, as in gpu-sw.
#include <optional>
#include <string_view>

namespace gdp::stats {

struct TableRow {
  int open = 0, extend = 0;
  double lambda = 0, K = 0, H = 0;
  double alpha = 0, beta = 0;  // the length adjustment's mean: alpha * score + beta
  // Spouge's finite-size correction (protein rows only; 0 elsewhere):
  // BLAST's columns C, alpha_v (the variance's alpha) and sigma.
  double C = 0, alpha_v = 0, sigma = 0;
};

struct ProteinRows {
  TableRow ungapped;  // the matrix's ungapped row (BLAST's first, open = extend = INT2_MAX)
  std::optional<TableRow> gapped;  // the row for the gap costs asked for, if published
};

// The rows of a built-in protein matrix (BLOSUM45/50/62/80/90, PAM30/70/250;
// `matrix` upper case); none for any other matrix.
std::optional<ProteinRows> protein_rows(std::string_view matrix, int open, int extend);

struct NucleotideRow {
  TableRow row;     // lambda and alpha already divided by the scores' gcd
  bool round_down;  // E-values use the score rounded down to even (BLAST's rule for these scores)
};

// BLAST's row for match/mismatch scores (reward, penalty) and gap costs,
// with BLAST's reduction by the gcd of reward and penalty (its table gap
// costs scaled up, lambda and alpha down). BLAST's linear rows (its gap
// costs 0, 0: open 0, extend reward/2 - penalty) are matched as those
// costs. None when BLAST publishes no such row.
std::optional<NucleotideRow> nucleotide_row(int reward, int penalty, int open, int extend);

// BLAST's beta for ungapped nucleotide statistics (s_GetUngappedBeta).
double ungapped_nucleotide_beta(int reward, int penalty);

}  // namespace gdp::stats
