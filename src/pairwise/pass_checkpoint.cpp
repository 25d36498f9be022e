// The checkpoint file: a fixed header, then H and E of every query row as
// int32 pairs, all in the machine's byte order (a checkpoint is read back
// by the same build on the same kind of machine).
#include "pairwise/pass_checkpoint.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "pairwise/modes.hpp"
#include "pairwise/pairwise.hpp"

namespace gdp::pairwise {
namespace {

constexpr char kMagic[8] = {'g', 'd', 'p', 'c', 'k', 'p', 't', '1'};

struct Header {
  char magic[8];
  std::uint64_t fingerprint;
  std::int64_t m, next_column, end_i, end_j;
  std::int32_t escalation, score;
};

// FNV-1a, 64 bits.
struct Fnv {
  std::uint64_t h = 14695981039346656037ull;
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t k = 0; k < bytes; ++k) h = (h ^ p[k]) * 1099511628211ull;
  }
  template <class T>
  void add(const T& value) {
    add(&value, sizeof value);
  }
};

Header read_header(std::ifstream& in, const std::string& path, std::uint64_t fingerprint, std::int64_t m) {
  Header h{};
  in.read(reinterpret_cast<char*>(&h), sizeof h);
  if (!in || std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    throw InputError(path, 0, "not a gpu-sw checkpoint (remove it, or give --checkpoint another file)");
  if (h.fingerprint != fingerprint || h.m != m)
    throw InputError(path, 0,
                     "a checkpoint of another pair, scoring or mode (remove it, or give --checkpoint another file)");
  const auto size = std::filesystem::file_size(path);
  if (size != sizeof h + static_cast<std::uintmax_t>(m) * 8 || h.escalation < 0 || h.escalation > 2 ||
      h.next_column < 0)
    throw InputError(path, 0, "a damaged checkpoint (remove it to start again)");
  return h;
}

}  // namespace

std::uint64_t pass_fingerprint(Residues q, Residues t, const ScoringScheme& scheme, const Shape& shape) {
  Fnv f;
  f.add(static_cast<std::int64_t>(q.size()));
  f.add(static_cast<std::int64_t>(t.size()));
  f.add(q.data(), q.size());
  f.add(t.data(), t.size());
  f.add(scheme.dim);
  f.add(scheme.scores.data(), scheme.scores.size() * sizeof(int));
  f.add(scheme.gap_open);
  f.add(scheme.gap_extend);
  f.add(shape.local);
  f.add(shape.free_top);
  f.add(shape.left_open);
  f.add(static_cast<int>(shape.end));
  return f.h;
}

SavedAt saved_at(const std::string& path, std::uint64_t fingerprint, std::int64_t m) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  const Header h = read_header(in, path, fingerprint, m);
  return {h.next_column, h.escalation};
}

std::optional<CheckpointState> load_checkpoint(const std::string& path, std::uint64_t fingerprint, std::int64_t m) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const Header h = read_header(in, path, fingerprint, m);
  CheckpointState s;
  s.next_column = h.next_column, s.escalation = h.escalation;
  s.best = {h.score, h.end_i, h.end_j};
  s.edge.resize(static_cast<std::size_t>(2 * m));
  in.read(reinterpret_cast<char*>(s.edge.data()), static_cast<std::streamsize>(s.edge.size() * sizeof(std::int32_t)));
  if (!in) throw InputError(path, 0, "a damaged checkpoint (remove it to start again)");
  return s;
}

void check_checkpoint(const std::string& path, Residues query, Residues target, const ScoringScheme& scheme, Mode mode) {
  saved_at(path, pass_fingerprint(query, target, scheme, shape_of(mode, scheme)), static_cast<std::int64_t>(query.size()));
}

void save_checkpoint(const std::string& path, std::uint64_t fingerprint, const CheckpointState& s) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.fingerprint = fingerprint;
  h.m = static_cast<std::int64_t>(s.edge.size() / 2);
  h.next_column = s.next_column, h.end_i = s.best.end_i, h.end_j = s.best.end_j;
  h.escalation = s.escalation, h.score = s.best.score;
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(s.edge.data()), static_cast<std::streamsize>(s.edge.size() * sizeof(std::int32_t)));
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      throw RunError(path + ": cannot write the checkpoint");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::remove(temp.c_str());
    throw RunError(path + ": cannot write the checkpoint: " + ec.message());
  }
}

}  // namespace gdp::pairwise
