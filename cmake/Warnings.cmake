# gpudp_warnings: an interface target every project target links, so that
# warnings are the same everywhere and third-party headers stay quiet.
add_library(gpudp_warnings INTERFACE)
target_compile_options(gpudp_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
