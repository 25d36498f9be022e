#include "core/output_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "core/error.hpp"

namespace gdp {

OutputFile::OutputFile(const std::string& path) : path_(path), to_stdout_(path.empty() || path == "-") {
  if (to_stdout_) return;
  temp_ = path_ + ".tmp." + std::to_string(getpid());
  file_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!file_) throw InputError(path_, 0, "cannot create the output file");
}

OutputFile::~OutputFile() {
  if (!to_stdout_ && !committed_) {
    file_.close();
    std::remove(temp_.c_str());
  }
}

void OutputFile::commit() {
  if (to_stdout_) {
    std::cout.flush();
    if (!std::cout) throw RunError("error writing to standard output");
    committed_ = true;
    return;
  }
  file_.close();
  if (file_.fail()) throw RunError(path_ + ": error while writing the output file");
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) throw RunError(path_ + ": cannot move the output file into place");
  committed_ = true;
}

}  // namespace gdp
