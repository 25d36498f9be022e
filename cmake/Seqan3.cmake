# seqan3 is header-only. Debian's libseqan3-dev bundles the SDSL 3 headers it
# checks for under seqan3/submodules; we use only its sequence-file I/O, which
# needs nothing of SDSL but that version check. Only src/core/fasta_reader.cpp
# includes seqan3 (it is slow to compile, and nvcc never sees it).
find_path(SEQAN3_INCLUDE_DIR seqan3/version.hpp REQUIRED)
find_path(SEQAN3_SDSL_INCLUDE_DIR sdsl/version.hpp
  HINTS ${SEQAN3_INCLUDE_DIR}/seqan3/submodules/sdsl-lite/include REQUIRED)
add_library(gpudp_seqan3 INTERFACE)
target_include_directories(gpudp_seqan3 SYSTEM INTERFACE ${SEQAN3_INCLUDE_DIR} ${SEQAN3_SDSL_INCLUDE_DIR})
target_link_libraries(gpudp_seqan3 INTERFACE ZLIB::ZLIB Threads::Threads)
target_compile_definitions(gpudp_seqan3 INTERFACE SEQAN3_HAS_ZLIB=1)
