// Replays inputs through a fuzz target, for ctest: every file named, or
// every file in a folder named, one run each. An exception the target lets
// through (it catches the InputError that answers bad input) fails the
// run, naming the file; a sanitizer's report ends it as the sanitizer does.
// Usage: fuzz_TARGET_corpus FILE_OR_FOLDER...
#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int a = 1; a < argc; ++a) {
    if (fs::is_directory(argv[a])) {
      for (const fs::directory_entry& e : fs::directory_iterator(argv[a]))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.emplace_back(argv[a]);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "corpus: no inputs (name files or folders of them)\n";
    return 2;
  }
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::cerr << f.string() << ": cannot open\n";
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      std::cerr << f.string() << ": " << e.what() << "\n";
      return 1;
    }
  }
  std::cout << files.size() << " inputs replayed\n";
  return 0;
}
