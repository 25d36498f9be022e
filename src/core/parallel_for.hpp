#pragma once
// A loop over independent items on OpenMP threads, exception-safe: an
// exception may not leave an OpenMP region, so the first one thrown is
// kept and rethrown once every thread is done. The caller's target links
// OpenMP (without it, the loop runs on one thread).
#include <cstdint>
#include <exception>

namespace gdp {

template <class Body>
void parallel_for(std::int64_t count, int threads, Body&& body) {
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : 1)
  for (std::int64_t k = 0; k < count; ++k) {
    try {
      body(k);
    } catch (...) {
#pragma omp critical(gdp_parallel_for_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace gdp
