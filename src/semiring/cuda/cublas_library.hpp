#pragma once
// cuBLAS, opened (dlopen) the first time gpu-mm asks for it, so that a run
// that needs none (the classical kernel, the CPU, --help) does not spend
// the half second loading it takes. The functions gpu_multiply.cu calls,
// with cuBLAS's own types.
#include <cublas_v2.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "core/error.hpp"

namespace gdp::semiring {

struct CublasLibrary {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  decltype(&cublasDgemm_v2) dgemm = nullptr;
  decltype(&cublasSgemmStridedBatched) sgemm_batched = nullptr;
  decltype(&cublasDgemmStridedBatched) dgemm_batched = nullptr;

  // The library, opened once; RunError naming it when it or one of its
  // functions cannot be found.
  static const CublasLibrary& get() {
    static const CublasLibrary library = open();
    return library;
  }

 private:
  static CublasLibrary open() {
    const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw RunError("cannot load cuBLAS (" + name + "), needed by --algo cublas and --base cublas: " + dlerror());
    CublasLibrary l;
    auto find = [&](auto& function, const char* symbol) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, symbol));
      if (!function) throw RunError(name + " has no " + symbol);
    };
    find(l.create, "cublasCreate_v2");
    find(l.destroy, "cublasDestroy_v2");
    find(l.status_string, "cublasGetStatusString");
    find(l.sgemm, "cublasSgemm_v2");
    find(l.dgemm, "cublasDgemm_v2");
    find(l.sgemm_batched, "cublasSgemmStridedBatched");
    find(l.dgemm_batched, "cublasDgemmStridedBatched");
    return l;  // the handle stays open for the life of the program
  }
};

}  // namespace gdp::semiring
