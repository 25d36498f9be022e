#pragma once
// gpu-align3's three sequences: the three records of one file, or the one
// record of each of three files, in the order given.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/sequence.hpp"

namespace gdp::app {

struct Trio {
  std::vector<SequenceFile> files;       // as read: one or three
  std::array<std::size_t, 3> file_of{};  // each sequence's file, in `files`
  std::array<std::size_t, 3> index{};    // its record in that file

  const SequenceFile& file(std::size_t which) const { return files[file_of[which]]; }
  const SequenceRecord& record(std::size_t which) const { return file(which).records[index[which]]; }
  std::vector<const SequenceFile*> file_list() const;
};

// InputError, before anything is read, for other than one or three paths
// or standard input named twice; after reading, naming the file(s) and the
// records found, for one file without exactly three records or three files
// not of one record each. The reader's own errors (missing, empty, not
// FASTA, a record with no sequence) come first.
Trio read_trio(const std::vector<std::string>& paths);

}  // namespace gdp::app
