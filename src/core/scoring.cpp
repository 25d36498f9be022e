#include "core/scoring.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/builtin_matrices.hpp"
#include "core/error.hpp"

namespace gdp {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

// Values of a matrix row. Fixed-width files may run two values together
// ("-1-13"): a '-' right after a digit starts a new value.
std::vector<std::string_view> split_values(const std::vector<std::string_view>& words) {
  std::vector<std::string_view> values;
  for (std::size_t k = 1; k < words.size(); ++k) {
    std::string_view w = words[k];
    std::size_t start = 0;
    for (std::size_t i = 1; i < w.size(); ++i)
      if (w[i] == '-' && std::isdigit(static_cast<unsigned char>(w[i - 1]))) {
        values.push_back(w.substr(start, i - start));
        start = i;
      }
    values.push_back(w.substr(start));
  }
  return values;
}

}  // namespace

int ScoringScheme::max_abs_score() const {
  int m = 0;
  for (int s : scores) m = std::max(m, std::abs(s));
  return m;
}

ScoringScheme match_mismatch_scheme(int match, int mismatch) {
  if (std::abs(match) > max_substitution_score || std::abs(mismatch) > max_substitution_score)
    throw InputError("--match and --mismatch must lie between -" + std::to_string(max_substitution_score) +
                     " and " + std::to_string(max_substitution_score));
  ScoringScheme s;
  s.name = "match " + std::to_string(match) + ", mismatch " + std::to_string(mismatch);
  s.letters = "ACGTRYSWKMBDHVN";
  s.dim = static_cast<int>(s.letters.size());
  s.rank_of.fill(-1);
  for (int r = 0; r < s.dim; ++r) s.rank_of[static_cast<unsigned char>(s.letters[r])] = static_cast<std::int8_t>(r);
  s.rank_of['U'] = s.rank_of['T'];
  s.scores.assign(static_cast<std::size_t>(s.dim * s.dim), mismatch);
  for (int r = 0; r < 4; ++r) s.scores[r * s.dim + r] = match;
  return s;
}

ScoringScheme parse_ncbi_matrix(std::string_view text, const std::string& source) {
  ScoringScheme s;
  s.name = source;
  s.rank_of.fill(-1);
  std::vector<bool> row_seen;
  std::size_t line_no = 0, pos = 0, header_line = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    const auto words = split_words(line);
    if (words.empty() || words[0][0] == '#') {
      if (end == text.size()) break;
      continue;
    }
    if (s.letters.empty()) {  // the column header
      header_line = line_no;
      for (auto w : words) {
        if (w.size() != 1) throw InputError(source, line_no, "column header must be single letters, found '" + std::string(w) + "'");
        const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
        if (s.rank_of[static_cast<unsigned char>(c)] >= 0) throw InputError(source, line_no, std::string("letter '") + c + "' appears twice in the header");
        s.rank_of[static_cast<unsigned char>(c)] = static_cast<std::int8_t>(s.letters.size());
        s.letters += c;
      }
      if (s.letters.size() > 64) throw InputError(source, line_no, "more than 64 letters in the header");
      s.dim = static_cast<int>(s.letters.size());
      s.scores.assign(static_cast<std::size_t>(s.dim * s.dim), 0);
      row_seen.assign(s.letters.size(), false);
    } else {
      if (words[0].size() != 1) throw InputError(source, line_no, "row must start with a single letter, found '" + std::string(words[0]) + "'");
      const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(words[0][0])));
      const int r = s.rank_of[static_cast<unsigned char>(c)];
      if (r < 0) throw InputError(source, line_no, std::string("row letter '") + c + "' is not in the header");
      if (row_seen[r]) throw InputError(source, line_no, std::string("row '") + c + "' appears twice");
      row_seen[r] = true;
      const auto values = split_values(words);
      if (values.size() != s.letters.size())
        throw InputError(source, line_no, "row '" + std::string(1, c) + "' has " + std::to_string(values.size()) +
                                              " values, expected " + std::to_string(s.letters.size()));
      for (std::size_t k = 0; k < values.size(); ++k) {
        int v = 0;
        const auto w = values[k];
        const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
        if (ec != std::errc() || p != w.data() + w.size())
          throw InputError(source, line_no, "'" + std::string(w) + "' is not an integer");
        if (std::abs(v) > max_substitution_score)
          throw InputError(source, line_no, "score " + std::to_string(v) + " is out of range (at most " + std::to_string(max_substitution_score) + " in magnitude)");
        s.scores[static_cast<std::size_t>(r * s.dim) + k] = v;
      }
    }
    if (end == text.size()) break;
  }
  if (s.letters.empty()) throw InputError(source, 0, "no matrix found (expected a header row of letters)");
  for (int r = 0; r < s.dim; ++r)
    if (!row_seen[r])
      throw InputError(source, header_line, std::string("missing the row for '") + s.letters[r] + "'");
  return s;
}

std::vector<std::string> builtin_matrix_names() {
  std::vector<std::string> names;
  for (const auto& m : builtin_matrices()) names.emplace_back(m.name);
  return names;
}

ScoringScheme matrix_scheme(const std::string& name_or_file) {
  const std::string wanted = upper(name_or_file);
  for (const auto& m : builtin_matrices())
    if (m.name == wanted) {
      ScoringScheme s = parse_ncbi_matrix(m.text, std::string(m.name));
      return s;
    }
  std::ifstream in(name_or_file);
  if (!in) {
    std::string names;
    for (const auto& n : builtin_matrix_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError(name_or_file, 0, "no such matrix file, and not a built-in matrix (" + names + ")");
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse_ncbi_matrix(text.str(), name_or_file);
}

void set_gap_costs(ScoringScheme& scheme, int open, int extend) {
  if (open < 0 || extend < 0) throw InputError("gap costs must not be negative (got open " + std::to_string(open) + ", extend " + std::to_string(extend) + "); they are subtracted from the score");
  if (open > max_gap_cost || extend > max_gap_cost)
    throw InputError("gap costs must be at most " + std::to_string(max_gap_cost) + " (got open " + std::to_string(open) + ", extend " + std::to_string(extend) + ")");
  scheme.gap_open = open;
  scheme.gap_extend = extend;
}

std::vector<std::uint8_t> encode(const SequenceFile& file, std::size_t record, const ScoringScheme& scheme,
                                 Alphabet alphabet) {
  const std::string& residues = file.records.at(record).residues;
  std::array<std::int8_t, 256> allowed = scheme.rank_of;
  if (is_nucleotide(alphabet)) {
    std::array<bool, 256> nucleotide{};
    for (char c : nucleotide_letters) nucleotide[static_cast<unsigned char>(c)] = true;
    for (int c = 0; c < 256; ++c)
      if (!nucleotide[c]) allowed[c] = -1;
  }
  std::vector<std::uint8_t> ranks(residues.size());
  for (std::size_t i = 0; i < residues.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(residues[i]);
    const int r = allowed[c];
    if (r < 0) {
      std::string why = std::string("letter '") + static_cast<char>(c) + "' in record '" + file.records[record].id + "' ";
      const bool nucleotide = nucleotide_letters.find(static_cast<char>(c)) != std::string_view::npos;
      why += is_nucleotide(alphabet) && !nucleotide
                 ? "is not a nucleotide code (the alphabet is " + std::string(to_string(alphabet)) + ")"
                 : "is not in the matrix " + scheme.name;
      throw InputError(file.display_name(), file.line_of(record, i), why);
    }
    ranks[i] = static_cast<std::uint8_t>(r);
  }
  return ranks;
}

}  // namespace gdp
