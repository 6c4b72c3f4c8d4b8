// Where a program file is and what it says. A relative path set in a scenario file is taken
// from the scenario file's directory first, then from the current directory; one given with
// --set (or anywhere else) from the current directory.
#pragma once
#include <string>

#include "sw/apps/mpi_program.h"

namespace hs::runner::program {

// `path` as given, `source` where the value came from (ParamInfo::source: "FILE:LINE" for a
// scenario file). Returns the path to open.
std::string resolve_program_path(const std::string& path, const std::string& source);

// Reads and parses the file; throws InputError naming it ("cannot open", or FILE:LINE:COL).
fw::program::Program load_program(const std::string& path);

}  // namespace hs::runner::program
