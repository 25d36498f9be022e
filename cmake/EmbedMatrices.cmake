# Writes OUT, a C++ source that holds every file of DIR as a string, for
# src/core/builtin_matrices.hpp. Runs at configure time; DIR is watched.
function(gpudp_embed_matrices DIR OUT)
  file(GLOB files RELATIVE ${DIR} CONFIGURE_DEPENDS ${DIR}/*)
  list(FILTER files EXCLUDE REGEX "README")
  list(SORT files)
  set(body "")
  foreach(f IN LISTS files)
    file(READ ${DIR}/${f} text)
    string(APPEND body "    {\"${f}\", R\"MATRIX(${text})MATRIX\"},\n")
  endforeach()
  file(CONFIGURE OUTPUT ${OUT} CONTENT "// Generated from data/matrices by cmake/EmbedMatrices.cmake; do not edit.
#include \"core/builtin_matrices.hpp\"

namespace gdp {
namespace {
constexpr BuiltinMatrix matrices[] = {
${body}};
}  // namespace

std::span<const BuiltinMatrix> builtin_matrices() { return matrices; }

}  // namespace gdp
" @ONLY)
endfunction()
