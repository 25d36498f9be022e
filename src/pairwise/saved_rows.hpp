#pragma once
// H and F of every `every`-th row of a score pass (rows every, 2 every,
// ... up to m), each as a LastRow of the pass over the query's first r
// letters would be, for the traceback that splits the matrix at them
// (cpu/passes.hpp: align_by_saved_rows). They lie in host memory or,
// where spill_dir is set, in a file there, mapped: the system then writes
// them out when memory is short. The file is unlinked as soon as it is
// made, so it goes with the process however that ends.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace gdp::pairwise {

class SavedRows {
 public:
  std::int64_t every = 0;
  std::string spill_dir;  // empty: host memory

  SavedRows() = default;
  SavedRows(const SavedRows&) = delete;
  SavedRows& operator=(const SavedRows&) = delete;
  ~SavedRows() { release(); }

  // Room for `rows` rows of `columns` cells each, of H and of F, their
  // cells undefined; what was held before is dropped. Throws RunError
  // where the spill file cannot be made or given its room on disk.
  void allocate(std::int64_t rows, std::int64_t columns);
  std::int64_t rows() const { return rows_; }
  std::int64_t columns() const { return columns_; }
  bool spilled() const { return mapped_ != nullptr; }
  // Row k * every (k from 1 to rows()).
  std::span<int> h(std::int64_t k) { return {data_ + (k - 1) * columns_, static_cast<std::size_t>(columns_)}; }
  std::span<int> f(std::int64_t k) { return {data_ + (rows_ + k - 1) * columns_, static_cast<std::size_t>(columns_)}; }
  std::span<const int> h(std::int64_t k) const {
    return {data_ + (k - 1) * columns_, static_cast<std::size_t>(columns_)};
  }
  std::span<const int> f(std::int64_t k) const {
    return {data_ + (rows_ + k - 1) * columns_, static_cast<std::size_t>(columns_)};
  }

 private:
  void release();

  int* data_ = nullptr;  // the rows of H, then those of F
  std::int64_t rows_ = 0, columns_ = 0;
  std::unique_ptr<int[]> memory_;
  void* mapped_ = nullptr;
  std::size_t mapped_bytes_ = 0;
};

}  // namespace gdp::pairwise
