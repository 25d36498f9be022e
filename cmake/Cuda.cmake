# CUDA is optional. With nvcc the GPU parts are built (GPUDP_HAVE_CUDA);
# without it the build says so once and builds the CPU paths only.
include(CheckLanguage)
option(GPUDP_CUDA "Build the GPU paths when a CUDA compiler is found" ON)
set(GPUDP_HAVE_CUDA OFF)
if(GPUDP_CUDA)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # The device machine is an H100 (sm_90); override with -DCMAKE_CUDA_ARCHITECTURES.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    # CMake 3.25 does not know that nvcc 12+ speaks C++20: teach it.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    # The tools link the CUDA runtime statically (CUDA::cudart_static): an
    # installed tool needs the NVIDIA driver, not the toolkit.
    set(GPUDP_HAVE_CUDA ON)
    # Each host thread's default stream is its own, not the device's one
    # legacy stream: a split's parts run passes side by side from several
    # threads (in .cpp files that call CUDA as in .cu ones).
    add_compile_definitions(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    message(STATUS "gpu-dp: CUDA ${CMAKE_CUDA_COMPILER_VERSION} found, building the GPU paths for sm_${CMAKE_CUDA_ARCHITECTURES}")
  endif()
endif()
if(NOT GPUDP_HAVE_CUDA)
  message(STATUS "gpu-dp: no CUDA compiler found, building the CPU paths only")
endif()
