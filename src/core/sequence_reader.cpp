// The only translation unit that includes seqan3 (slow to compile).
// zlib reads the file (plain or gzip) into memory; a line scan records where
// each record and sequence line starts, for error messages, and rejects what
// seqan3 would silently drop (digits, punctuation); seqan3 parses the records.
#include "core/sequence_reader.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <istream>
#include <seqan3/io/sequence_file/input.hpp>
#include <streambuf>
#include <unistd.h>

#include "core/error.hpp"

namespace gdp {
namespace {

std::string read_all(const std::string& path, const std::string& name) {
  if (path != "-") {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError(name, 0, "cannot open: no such file");
    if (std::filesystem::is_directory(path, ec)) throw InputError(name, 0, "cannot read: is a directory");
  }
  gzFile in = path == "-" ? gzdopen(dup(STDIN_FILENO), "rb") : gzopen(path.c_str(), "rb");
  if (!in) throw InputError(name, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  std::vector<char> buf(1 << 20);
  for (;;) {
    int got = gzread(in, buf.data(), static_cast<unsigned>(buf.size()));
    int err = Z_OK;
    std::string msg = got < 0 ? gzerror(in, &err) : "";
    if (got == 0) {
      gzerror(in, &err);  // Z_BUF_ERROR: the input ended inside a gzip stream
      if (err == Z_BUF_ERROR) msg = "unexpected end of file";
    }
    if (got < 0 || err == Z_BUF_ERROR) {
      gzclose(in);
      // zlib prefixes its messages with the path; the caller names the file.
      if (msg.rfind(path + ": ", 0) == 0) msg.erase(0, path.size() + 2);
      throw InputError(name, 0, "cannot read: " + (err == Z_ERRNO ? std::string(std::strerror(errno)) : msg));
    }
    if (got == 0) break;
    text.append(buf.data(), static_cast<std::size_t>(got));
  }
  if (gzclose(in) != Z_OK) throw InputError(name, 0, "cannot read: the compressed data is damaged or truncated");
  return text;
}

// A read-only stream over text already in memory (no copy).
struct MemoryBuffer : std::streambuf {
  MemoryBuffer(std::string& s, std::size_t from) { setg(s.data() + from, s.data() + from, s.data() + s.size()); }
};

// '&' only where the caller keeps it (Ampersand::keep).
bool allowed_residue_char(unsigned char c, Ampersand amp) {
  return std::isalpha(c) || c == '*' || c == '-' || c == '.' || (c == '&' && amp == Ampersand::keep);
}

// Calls f(line number, line) for each line of text, 1-based, without its
// '\n' or a trailing '\r'. Returns the number of lines.
template <class F>
std::size_t for_each_line(const std::string& text, F&& f) {
  std::size_t line = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + pos, end - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    f(++line, l);
    pos = end + 1;
  }
  return line;
}

// The residues of a sequence line (white space skipped), each checked.
std::uint32_t count_residues(std::string_view l, const std::string& name, std::size_t line, Ampersand amp) {
  std::uint32_t residues = 0;
  for (unsigned char c : l) {
    if (std::isspace(c)) continue;
    if (!allowed_residue_char(c, amp))
      throw InputError(name, line, std::string("unexpected character '") + static_cast<char>(c) + "' in a sequence");
    ++residues;
  }
  return residues;
}

// FASTA: a record per '>' line; checks the characters of sequence lines.
std::vector<SequenceRecord> scan_fasta(const std::string& text, const std::string& name, Ampersand amp) {
  std::vector<SequenceRecord> records;
  for_each_line(text, [&](std::size_t line, std::string_view l) {
    if (!l.empty() && l.front() == '>') {
      records.emplace_back();
      records.back().line = line;
      return;
    }
    if (records.empty()) {
      if (l.find_first_not_of(" \t") != std::string_view::npos)
        throw InputError(name, line, "not FASTA or FASTQ: expected '>' or '@' before the first sequence");
      return;
    }
    records.back().line_lengths.push_back(count_residues(l, name, line, amp));
  });
  return records;
}

// FASTQ: records of four lines (header, sequence, '+', qualities), blank
// lines allowed only between records; seqan3 checks the qualities.
std::vector<SequenceRecord> scan_fastq(const std::string& text, const std::string& name, Ampersand amp) {
  std::vector<SequenceRecord> records;
  int part = 0;  // line of the record coming next: 0 header, 1 sequence, 2 '+', 3 qualities
  const std::size_t lines = for_each_line(text, [&](std::size_t line, std::string_view l) {
    if (part == 0 && l.find_first_not_of(" \t") == std::string_view::npos) return;
    if (part == 0) {
      if (l.front() != '@') throw InputError(name, line, "malformed FASTQ: expected a header line starting with '@'");
      records.emplace_back();
      records.back().line = line;
    } else if (part == 1) {
      records.back().line_lengths.push_back(count_residues(l, name, line, amp));
    } else if (part == 2 && (l.empty() || l.front() != '+')) {
      throw InputError(name, line, "malformed FASTQ: expected a '+' line (multi-line FASTQ is not supported)");
    } else if (part == 3) {
      records.back().quality.assign(l);
    }
    part = (part + 1) % 4;
  });
  if (part != 0) throw InputError(name, lines, "malformed FASTQ: the last record is incomplete");
  return records;
}

// Plain lines: a record a non-blank line, named by its order.
std::vector<SequenceRecord> scan_plain_lines(const std::string& text, const std::string& name, Ampersand amp) {
  std::vector<SequenceRecord> records;
  for_each_line(text, [&](std::size_t line, std::string_view l) {
    if (l.find_first_of(">@") != std::string_view::npos)
      throw InputError(name, line, "a header line after plain sequence lines: use FASTA throughout");
    const std::uint32_t n = count_residues(l, name, line, amp);
    if (n == 0) return;
    SequenceRecord r;
    r.id = "seq" + std::to_string(records.size() + 1);
    r.line = line;
    r.line_lengths.push_back(n);
    for (unsigned char c : l)
      if (!std::isspace(c)) r.residues += static_cast<char>(std::toupper(c));
    records.push_back(std::move(r));
  });
  return records;
}

struct RawTraits : seqan3::sequence_file_input_default_traits_dna {
  using sequence_alphabet = char;
  using sequence_legal_alphabet = char;
  template <typename Alph>
  using sequence_container = std::basic_string<Alph>;
};

// Parses text[first..] (from the first record: seqan3 rejects leading blank lines).
template <typename Format>
void parse(std::string& text, std::size_t first, std::vector<SequenceRecord>& records, const std::string& name) {
  MemoryBuffer buffer(text, first);
  std::istream stream(&buffer);
  using Fields = seqan3::fields<seqan3::field::id, seqan3::field::seq>;
  seqan3::sequence_file_input<RawTraits, Fields, seqan3::type_list<Format>> file{stream, Format{}};
  std::size_t i = 0;
  try {
    for (auto& rec : file) {
      if (i >= records.size()) throw InputError(name, 0, "malformed record after record " + std::to_string(i));
      SequenceRecord& r = records[i];
      std::string header = std::move(rec.id());
      while (!header.empty() && (header.back() == '\r' || header.back() == ' ' || header.back() == '\t')) header.pop_back();
      const std::size_t cut = header.find_first_of(" \t");
      r.id = header.substr(0, cut);
      if (cut != std::string::npos) {
        const std::size_t rest = header.find_first_not_of(" \t", cut);
        if (rest != std::string::npos) r.description = header.substr(rest);
      }
      r.residues = std::move(rec.sequence());
      std::transform(r.residues.begin(), r.residues.end(), r.residues.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      ++i;
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    const std::size_t line = i < records.size() ? records[i].line : 0;
    throw InputError(name, line, std::string("malformed record: ") + e.what());
  }
  if (i != records.size()) throw InputError(name, 0, "malformed file: read " + std::to_string(i) + " of " + std::to_string(records.size()) + " records");
}

}  // namespace

SequenceFile read_sequences(const std::string& path, PlainLines plain, Ampersand amp) {
  SequenceFile named;
  named.path = path;
  return parse_sequences(read_all(path, named.display_name()), path, plain, amp);
}

SequenceFile parse_sequences(std::string text, const std::string& path, PlainLines plain, Ampersand amp) {
  SequenceFile file;
  file.path = path;
  const std::string name = file.display_name();
  const std::size_t first = text.find_first_not_of(" \t\r\n\v\f");  // std::isspace's blanks
  if (first == std::string::npos) throw InputError(name, 0, "empty file: no sequences");
  if (text[first] == '>') {
    file.records = scan_fasta(text, name, amp);
    parse<seqan3::format_fasta>(text, first, file.records, name);
  } else if (text[first] == '@') {
    file.records = scan_fastq(text, name, amp);
    parse<seqan3::format_fastq>(text, first, file.records, name);
  } else if (plain == PlainLines::records) {
    file.records = scan_plain_lines(text, name, amp);
    if (file.records.empty()) throw InputError(name, 0, "empty file: no sequences");
  } else {
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(first), '\n'));
    throw InputError(name, line, "not FASTA or FASTQ: expected '>' or '@'");
  }
  for (const SequenceRecord& r : file.records) {
    if (r.id.empty()) throw InputError(name, r.line, "record has no name");
    if (r.residues.empty()) throw InputError(name, r.line, "record '" + r.id + "' has no sequence");
    std::size_t scanned = 0;
    for (auto n : r.line_lengths) scanned += n;
    if (scanned != r.residues.size()) throw InputError(name, r.line, "malformed record '" + r.id + "'");
  }
  return file;
}

}  // namespace gdp
