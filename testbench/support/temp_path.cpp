#include "testbench/support/temp_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace hs::testing {

namespace {
struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    const char* base = std::getenv("TMPDIR");
    path = std::filesystem::path(base ? base : "/tmp") /
           ("hybridsim_test_" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;  // nothing to report at exit: a file still open is left to the system
    std::filesystem::remove_all(path, ec);
  }
};
}  // namespace

std::string temp_path(const std::string& name) {
  static ScratchDir dir;
  std::filesystem::create_directories(dir.path);  // a test may have removed it
  return (dir.path / name).string();
}

}  // namespace hs::testing
