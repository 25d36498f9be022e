#pragma once
// The classical kernel's launches (cuda/classic_products.cu) for the rest
// of the GPU engine (cuda/gpu_multiply.cu): plain C++, no CUDA types.
#include <cstdint>

#include "semiring/gpu.hpp"

namespace gdp::semiring {

// The classical kernel on device views: p.batch products, p.splits slices
// of k each (splits > 1 adds into C, int32 max-plus and min-plus only).
// For float, double and int32.
template <class T>
void launch_classic(const DeviceProduct<T>& p);

}  // namespace gdp::semiring
