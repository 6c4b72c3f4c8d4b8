// A test process's scratch files: one directory of its own under the test temp directory
// (ctest runs tests as parallel processes sharing it), removed with everything in it when the
// process exits, so that a suite run leaves nothing behind.
#pragma once
#include <string>

namespace hs::testing {

// `name` inside this process's scratch directory (made on first use).
std::string temp_path(const std::string& name);

}  // namespace hs::testing
