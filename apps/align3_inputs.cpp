#include "align3_inputs.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/sequence_reader.hpp"

namespace gdp::app {
namespace {

std::string records_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " record" : " records"); }

}  // namespace

std::vector<const SequenceFile*> Trio::file_list() const {
  std::vector<const SequenceFile*> list;
  for (const SequenceFile& f : files) list.push_back(&f);
  return list;
}

Trio read_trio(const std::vector<std::string>& paths) {
  if (paths.size() != 1 && paths.size() != 3)
    throw InputError("give one file of three records or three files of one record each, not " +
                     std::to_string(paths.size()) + " files");
  if (std::count(paths.begin(), paths.end(), "-") > 1) throw InputError("only one input can be standard input");
  Trio t;
  for (const std::string& p : paths) t.files.push_back(read_sequences(p));
  if (t.files.size() == 1) {
    const SequenceFile& f = t.files[0];
    if (f.records.size() != 3)
      throw InputError(f.display_name(), 0,
                       "found " + records_text(f.records.size()) +
                           "; give one file of three records or three files of one record each");
    t.index = {0, 1, 2};
    return t;
  }
  std::string wrong;
  for (const SequenceFile& f : t.files)
    if (f.records.size() != 1) wrong += (wrong.empty() ? "" : ", ") + f.display_name() + " has " + records_text(f.records.size());
  if (!wrong.empty()) throw InputError("each of three files must hold one record: " + wrong);
  t.file_of = {0, 1, 2};
  return t;
}

}  // namespace gdp::app
