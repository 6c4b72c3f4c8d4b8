// Runs the hybridsim executable as a user would, for tests of the command line.
#pragma once
#include <string>

#include "testbench/support/temp_path.h"

namespace hs::testing {

struct CliResult {
  int code;            // exit code (-1 if killed)
  std::string output;  // stdout and stderr together
};

// Path of the hybridsim executable under test.
std::string hybridsim_bin();

// Runs `hybridsim ARGS` through the shell (ARGS may hold redirections and quotes).
CliResult hybridsim(const std::string& args);
// Runs a shell command line and returns its exit code and what it wrote to standard output.
CliResult run_shell(const std::string& cmd);

// Holds a run at a known point so that a test can signal it without racing it: a run started
// with `env` in its environment (HYBRIDSIM_TEST_HOLD) stops at `ns` of simulated time, and
// waits there until SIGINT or SIGTERM asks it to stop.
struct RunHold {
  RunHold(const std::string& name, double ns);  // makes the FIFO temp_path(name)
  std::string fifo, env;
  // Returns once the run (process `pid`) is held; throws if it ended instead.
  void wait(int pid) const;
};

// `text` without AddressSanitizer's notices about SystemC's coroutine stack switches: in a
// sanitizer build they are the only lines a quiet run may print besides its own.
std::string without_sanitizer_notices(const std::string& text);

// A whole file as text ("" if it cannot be read).
std::string file_text(const std::string& path);
// Writes `text` to temp_path(name) and returns that path.
std::string write_temp_file(const std::string& name, const std::string& text);

}  // namespace hs::testing
