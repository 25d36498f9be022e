# `cmake --install` and `cpack -G DEB`: the tools in bin/, their manual
# pages (help2man, from --help) in share/man/man1/, the substitution
# matrices (built into the tools; these are the files, to read or edit and
# give as --matrix FILE) in share/gpu-dp/matrices/, README and CHANGELOG in
# share/doc/gpu-dp/. The package needs no CUDA toolkit: the CUDA runtime is
# linked statically, and only the NVIDIA driver is needed for a GPU.
include(GNUInstallDirs)
set(GPUDP_TOOLS gpu-sw gpu-mm gpu-fold gpu-syntenic gpu-align3)

install(TARGETS ${GPUDP_TOOLS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/matrices/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gpu-dp/matrices)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(pages)
  foreach(tool IN LISTS GPUDP_TOOLS)
    set(page ${CMAKE_BINARY_DIR}/man/${tool}.1.gz)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
      COMMAND ${PROJECT_SOURCE_DIR}/cmake/man_page.sh ${HELP2MAN} $<TARGET_FILE:${tool}> ${page}
      DEPENDS ${tool} ${PROJECT_SOURCE_DIR}/cmake/man_page.sh
      COMMENT "Manual page of ${tool}")
    list(APPEND pages ${page})
  endforeach()
  add_custom_target(man_pages ALL DEPENDS ${pages})
  install(FILES ${pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no manual pages (scripts/setup.sh installs it)")
endif()

set(CPACK_PACKAGE_NAME gpu-dp)
set(CPACK_PACKAGE_VENDOR "gpu-dp")
set(CPACK_PACKAGE_CONTACT "gpu-dp developers <gpu-dp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exact dynamic programming for bioinformatics on GPUs and CPUs")
set(CPACK_PACKAGE_DESCRIPTION
    "Pairwise alignment (gpu-sw), syntenic alignment (gpu-syntenic), optimal alignment of three sequences (gpu-align3), RNA folding and RNA-RNA interaction (gpu-fold), and matrix multiplication in three semirings (gpu-mm), exact, on NVIDIA GPUs and on the CPU.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends from the libraries the tools load (dpkg-shlibdeps)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-cuda-toolkit")  # cuBLAS, for gpu-mm --algo cublas
include(CPack)
