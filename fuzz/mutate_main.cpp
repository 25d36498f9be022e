// A fuzzing engine for targets clang cannot build (scripts/fuzz.sh): random
// mutations of the corpus's inputs (bytes flipped, set to a letter the
// formats care about, inserted, removed, ranges repeated, two inputs
// spliced) run through the target for a set time, built with GCC's
// AddressSanitizer and UndefinedBehaviorSanitizer. Not guided by coverage
// as libFuzzer is. An input that makes the target throw, or a sanitizer
// report, is written to the crash folder, and the run fails.
// Usage: fuzz_TARGET_mutate SECONDS CRASH_FOLDER CORPUS_FOLDER...
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// The sanitizers' hook, where the build has them (weak: absent otherwise).
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace {

namespace fs = std::filesystem;

std::string current;      // the input being run, for the death callback
std::string crash_folder;

std::string save_current() {
  const std::string path =
      (fs::path(crash_folder) / ("crash-" + std::to_string(std::hash<std::string>{}(current)))).string();
  std::ofstream(path, std::ios::binary) << current;
  return path;
}

void on_death() { std::fprintf(stderr, "mutate: the input is in %s\n", save_current().c_str()); }

std::string mutate(std::string s, const std::vector<std::string>& corpus, std::mt19937_64& rng) {
  static const std::string letters = ">@+&\n\r\t ACGTUNacgtn0123456789-.,'(){}:\x93";
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % std::max<std::size_t>(n, 1)); };
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = pick(s.size() + 1);
    switch (rng() % 7) {
      case 0: if (at < s.size()) s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8))); break;
      case 1: if (at < s.size()) s[at] = letters[pick(letters.size())]; break;
      case 2: s.insert(at, 1, letters[pick(letters.size())]); break;
      case 3: s.insert(at, 1, static_cast<char>(rng())); break;
      case 4: if (at < s.size()) s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at))); break;
      case 5: if (at < s.size()) s.insert(at, s.substr(at, 1 + pick(std::min<std::size_t>(64, s.size() - at)))); break;
      case 6: {
        const std::string& other = corpus[pick(corpus.size())];
        const std::size_t from = pick(other.size());
        s = s.substr(0, at) + other.substr(from, pick(other.size() - from + 1));
        break;
      }
    }
  }
  return s.size() > (1 << 16) ? s.substr(0, 1 << 16) : s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: " << argv[0] << " SECONDS CRASH_FOLDER CORPUS_FOLDER...\n";
    return 2;
  }
  const double seconds = std::stod(argv[1]);
  crash_folder = argv[2];
  fs::create_directories(crash_folder);
  std::vector<std::string> corpus;
  for (int a = 3; a < argc; ++a)
    for (const fs::directory_entry& e : fs::directory_iterator(argv[a]))
      if (e.is_regular_file()) {
        std::ifstream in(e.path(), std::ios::binary);
        corpus.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      }
  if (corpus.empty()) corpus.emplace_back();
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(on_death);
  std::mt19937_64 rng(std::random_device{}());
  const auto start = std::chrono::steady_clock::now();
  long long runs = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    for (int batch = 0; batch < 256; ++batch, ++runs) {
      current = mutate(corpus[static_cast<std::size_t>(rng() % corpus.size())], corpus, rng);
      try {
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(current.data()), current.size());
      } catch (const std::exception& e) {
        std::cerr << "mutate: " << e.what() << "; the input is in " << save_current() << "\n";
        return 1;
      }
    }
  }
  std::cout << "mutate: " << runs << " runs in " << seconds << " s, nothing found\n";
  return 0;
}
