// Which hybridsim produced a result: recorded in every sweep's metadata.
#pragma once
#include <string>

namespace hs::sweep {

std::string hybridsim_version();
std::string git_revision();  // `git describe --always --dirty` at build time, or "unknown"
std::string host_name();

}  // namespace hs::sweep
