# `cmake --install build --prefix P`: headers, libraries, tools, the LLVM
# plugin, the viewer, a CMake package (find_package(lowertrace CONFIG) ->
# lowertrace::<name>) and pkg-config files. Included last by the top-level
# CMakeLists.txt, so every target below already exists or is skipped.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# THE list of installed libraries: "<target>:<name in the lowertrace:: namespace>".
# A new library is one more entry here (targets that this configuration did
# not build, e.g. lowertrace_mlir with LOWERTRACE_WITH_MLIR=OFF, are skipped).
set(LOWERTRACE_INSTALL_LIBRARIES
  lowertrace_util:util
  lowertrace_diff:diff
  lowertrace_report:report
  lowertrace:engine
  lowertrace_dump:dump
  lowertrace_llvm_codegen:llvm_codegen
  lowertrace_c:c
  lowertrace_mlir:mlir)
# Executables installed to bin/ (not exported: nothing links them).
set(LOWERTRACE_INSTALL_TOOLS lowertrace_cli lowertrace-opt)

set(LT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/lowertrace)
foreach(entry IN LISTS LOWERTRACE_INSTALL_LIBRARIES)
  string(REPLACE ":" ";" pair "${entry}")
  list(GET pair 0 tgt)
  list(GET pair 1 name)
  if(NOT TARGET ${tgt})
    continue()
  endif()
  set_target_properties(${tgt} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${tgt} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${tgt} EXPORT lowertraceTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  add_library(lowertrace::${name} ALIAS ${tgt})  # same names for add_subdirectory users
endforeach()

# The LLVM pass plugin goes where LLVM puts its own loadable plugins
# (lib/, next to LLVMPolly.so); exported as lowertrace::llvm_plugin so that
# $<TARGET_FILE:lowertrace::llvm_plugin> gives a consumer its path.
if(TARGET lowertrace_llvm_plugin)
  set_target_properties(lowertrace_llvm_plugin PROPERTIES EXPORT_NAME llvm_plugin)
  install(TARGETS lowertrace_llvm_plugin EXPORT lowertraceTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

foreach(tool IN LISTS LOWERTRACE_INSTALL_TOOLS)
  if(TARGET ${tool})
    # The installed tools find libMLIR.so / libLLVM.so where they were linked
    # from (Debian keeps them in /usr/lib/llvm-22/lib, off the loader's path).
    set_target_properties(${tool} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/lowertrace
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/lowertrace/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lowertrace)
# The viewer is embedded in every report; the files are installed too, for
# viewer plug-ins and for reading.
file(GLOB LT_WEB_INSTALL ${PROJECT_SOURCE_DIR}/web/*.html ${PROJECT_SOURCE_DIR}/web/*.js
     ${PROJECT_SOURCE_DIR}/web/*.css)
install(FILES ${LT_WEB_INSTALL} DESTINATION ${CMAKE_INSTALL_DATADIR}/lowertrace/web)

install(EXPORT lowertraceTargets NAMESPACE lowertrace:: DESTINATION ${LT_CMAKE_DIR})
set(LT_CONFIG_WITH_MLIR ${LOWERTRACE_WITH_MLIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/lowertraceConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lowertraceConfig.cmake INSTALL_DESTINATION ${LT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lowertraceConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lowertraceConfig.cmake
              ${PROJECT_BINARY_DIR}/lowertraceConfigVersion.cmake
        DESTINATION ${LT_CMAKE_DIR})

# pkg-config: the engine (with diff, report, util) and the dump importers.
# The libraries are static, so their dependencies are in Requires/Libs, not *.private.
# prefix is relative to the .pc file, so `cmake --install --prefix P` needs no reconfigure.
file(RELATIVE_PATH LT_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
foreach(pc lowertrace lowertrace-dump)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
