// Builds without CUDA: gpu-fold folds on the CPU only.
#include "core/error.hpp"
#include "fold/table.hpp"

namespace gdp::fold {

Table fill_gpu(std::string_view, const Rules&, int, double&, double*, bool) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

std::vector<Table> fill_gpu_batch(const std::vector<std::string_view>&, const Rules&, int, double&,
                                  std::vector<std::string>*) {
  throw RunError("this build of gpu-dp has no CUDA: use --cpu");
}

}  // namespace gdp::fold
