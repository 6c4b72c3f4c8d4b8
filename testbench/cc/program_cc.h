// The compiler wrappers' engine: turns a compiler command line (sources, -o, -I, -D, -O, -g,
// -l, -c, objects) into the underlying compiler's, so that a user's program builds into a
// module the simulator loads (sw/user/program_image.h) with its Makefile or
// `./configure CC=hybridsim-mpicc` unchanged. Each wrapper (hybridsim-mpicc, hybridsim-mpicxx,
// each target of hybridsim-cellcc) is a Flavour: its language, its include directories and its
// runtime libraries.
//
// What the engine adds:
// - always: -I for the flavour's headers (mpi.h, hybridsim.h), -DHYBRIDSIM=1, -fPIC (every
//   object may end up in a module) and -fasynchronous-unwind-tables;
// - when linking: -shared, -Wl,-Bsymbolic (the program's own definitions win over the C
//   library's, as an executable's do), the program runtime whole (sw/user/runtime/), and,
//   when the flavour has a launch command, the entry that makes the module runnable on its
//   own (exec_entry.c: for MPI, ./program runs it as one rank under `hybridsim mpirun`).
// Modes with nothing to link (-c, -E, -S, -M...) and queries (--version, -v, -dumpversion,
// -print-...) pass through with only the compile flags. -show prints the command instead of
// running it. -static is refused (a module cannot be static). HYBRIDSIM_CC and HYBRIDSIM_CXX
// choose the underlying compilers (default: the ones the simulator was built with).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace hs::cc {

struct Flavour {
  std::string wrapper;                    // "hybridsim-mpicc", for messages
  bool cxx = false;                       // C++ (links the runtime's C++ part and libstdc++)
  std::vector<std::string> include_dirs;  // the interface's headers
  std::vector<std::string> archives;      // its runtime libraries, linked whole
  // The `hybridsim` arguments that run a module on its own (./program ARGS runs
  // `hybridsim LAUNCH... ./program ARGS`): {"mpirun", "-n", "1"} for MPI. Empty: a module
  // that is not runnable on its own.
  std::vector<std::string> launch;
};

// A programming interface's parts (MPI's: mpi.h and its forwarders), found by name.
struct Interface {
  std::string include_dir;  // its headers
  std::string archive;      // its runtime library, linked whole
};

// Where the wrapper finds its parts (the build tree's or an installation's). An interface is
// listed once, in testbench/CMakeLists.txt (HYBRIDSIM_CC_INTERFACES); installed, its headers
// are in include/hybridsim/program and its archive is lib/hybridsim/libhybridsim_NAME_runtime.a.
struct Layout {
  std::string c_compiler, cxx_compiler;
  std::string user_include;     // sw/user/include (hybridsim.h)
  std::string runtime_archive;  // the program runtime (C)
  std::string runtime_cxx_archive;
  std::string exec_entry_source;  // sw/user/runtime/exec_entry.c
  std::string hybridsim;          // the simulator a module runs itself under
  std::map<std::string, Interface> interfaces;

  // The flavour of a wrapper for `interface` ("mpi"): its headers, its archive, `launch`.
  Flavour flavour(const std::string& wrapper, const std::string& interface, bool cxx,
                  std::vector<std::string> launch) const;
};

struct Plan {
  // Commands to run in order (each an argv); empty when `error` is set.
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> temporaries;  // files to remove afterwards
  std::string error;                     // a refusal, for standard error
  bool show_only = false;                // -show: print the last command instead
};

// The plan for `args` (the wrapper's arguments, without argv[0]).
Plan plan(const Flavour& flavour, const Layout& layout, const std::vector<std::string>& args);

// Runs a plan as the wrapper does: returns the exit status the wrapper should exit with.
int execute(const Flavour& flavour, const Plan& p);

// The layout of the wrapper running now: the build tree it was built in, or the installation
// it sits in (bin/../lib/hybridsim, bin/../include/hybridsim).
Layout this_layout();

}  // namespace hs::cc
