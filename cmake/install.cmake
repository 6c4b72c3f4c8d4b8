# `cmake --install build --prefix DIR` installs the simulator and its models for use from one's
# own sc_main: the `hybridsim` command and its scenarios, the model libraries, their headers
# (under include/hybridsim, included as "hw/...", "sw/...", "tlm/..."), and a package config,
# so that a project finds them with find_package(hybridsim) and links hybridsim::hybridsim
# (the models) or hybridsim::runner (the models and the runner). testbench/examples/own_firmware
# and own_workload are such projects, built against an installation by a test.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_pkg_dir ${CMAKE_INSTALL_LIBDIR}/cmake/hybridsim)

# One name for users: everything a hybrid node or torus machine and its firmware need.
add_library(hybridsim_models INTERFACE)
target_link_libraries(hybridsim_models INTERFACE hybridsim_hw hybridsim_sw)
set_target_properties(hybridsim_models PROPERTIES EXPORT_NAME hybridsim)

# And the runner, for an sc_main that loads scenarios, registers workloads of its own and
# writes reports, traces and waveforms as `hybridsim run` does: hybridsim::runner.
set_target_properties(hybridsim_runner PROPERTIES EXPORT_NAME runner)

install(TARGETS hybridsim_flags hybridsim_options hybridsim_tlm hybridsim_hw hybridsim_sw hybridsim_rtl
                hybridsim_models hybridsim_runner
        EXPORT hybridsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY tlm hw sw DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hybridsim
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY testbench/runner testbench/checkers
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hybridsim/testbench
        FILES_MATCHING PATTERN "*.h")
install(EXPORT hybridsimTargets NAMESPACE hybridsim:: DESTINATION ${_pkg_dir})

configure_package_config_file(cmake/hybridsimConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/hybridsimConfig.cmake
                              INSTALL_DESTINATION ${_pkg_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/hybridsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/hybridsimConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/hybridsimConfigVersion.cmake
        DESTINATION ${_pkg_dir})

# The command line and the scenarios it runs by name (found beside the installed binary).
install(TARGETS hybridsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY testbench/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hybridsim/scenarios)

# User programs: the compiler wrappers, the runtimes they link into every program, the entry
# that makes a program runnable on its own, and the program-facing headers (mpi.h,
# hybridsim.h) in one directory. The wrappers find them relative to themselves
# (testbench/cc/program_cc.h).
install(TARGETS hybridsim-mpicc hybridsim-mpicxx hybridsim-cellcc
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS hybridsim_program_runtime hybridsim_program_runtime_cxx hybridsim_mpi_runtime
                hybridsim_spu_runtime hybridsim_ppu_runtime hybridsim_host_runtime
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/hybridsim)
install(FILES sw/user/runtime/exec_entry.c DESTINATION ${CMAKE_INSTALL_LIBDIR}/hybridsim)
install(DIRECTORY sw/user/include/ sw/mpi/include/ sw/cell/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hybridsim/program)
