#include "pairwise/saved_rows.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace gdp::pairwise {

void SavedRows::allocate(std::int64_t rows, std::int64_t columns) {
  release();
  if (rows <= 0 || columns <= 0) return;
  const auto cells = static_cast<std::size_t>(2 * rows * columns);
  if (spill_dir.empty()) {
    memory_.reset(new int[cells]);  // not zeroed: every cell is written before it is read
    data_ = memory_.get();
  } else {
    std::string path = spill_dir + "/gpu-dp-saved-rows-XXXXXX";
    const int fd = mkstemp(path.data());
    if (fd < 0) throw RunError(spill_dir + ": cannot make a file for the saved rows: " + std::strerror(errno));
    unlink(path.c_str());
    const std::size_t bytes = cells * sizeof(int);
    // The room on disk now, so that a full disk is an error here, not a
    // signal when a mapped page is written.
    const int reserved = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
    void* mapped = reserved == 0 ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    const int error = reserved != 0 ? reserved : errno;
    close(fd);  // the mapping keeps the file
    if (mapped == MAP_FAILED)
      throw RunError(spill_dir + ": no room for the saved rows' " + std::to_string(bytes >> 20) +
                     " MiB: " + std::strerror(error));
    mapped_ = mapped, mapped_bytes_ = bytes;
    data_ = static_cast<int*>(mapped);
  }
  rows_ = rows, columns_ = columns;
}

void SavedRows::release() {
  if (mapped_) munmap(mapped_, mapped_bytes_);
  mapped_ = nullptr, mapped_bytes_ = 0;
  memory_.reset();
  data_ = nullptr;
  rows_ = columns_ = 0;
}

}  // namespace gdp::pairwise
