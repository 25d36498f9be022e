#pragma once
// An output that never leaves a partial file behind: it is written to a
// temporary name beside the target and renamed into place on commit().
// "" and "-" mean standard output.
#include <fstream>
#include <iostream>
#include <ostream>
#include <string>

namespace gdp {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // throws InputError if it cannot be created
  ~OutputFile();                                 // removes the temporary if not committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return to_stdout_ ? std::cout : file_; }
  void commit();  // throws RunError if writing failed

 private:
  std::string path_, temp_;
  bool to_stdout_ = false, committed_ = false;
  std::ofstream file_;
};

}  // namespace gdp
