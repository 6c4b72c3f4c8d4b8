#include "testbench/sweep/build_info.h"

#include <unistd.h>

#include "git_revision.h"  // generated at build time (cmake/git_revision.cmake)

namespace hs::sweep {

std::string hybridsim_version() {
  return HYBRIDSIM_VERSION;
}

std::string git_revision() {
  return HYBRIDSIM_GIT_REVISION;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace hs::sweep
