#include "testbench/support/cli_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace hs::testing {

std::string hybridsim_bin() {
  return HYBRIDSIM_BIN;
}

CliResult hybridsim(const std::string& args) {
  const std::string cmd = hybridsim_bin() + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string temp_path(const std::string& name) {
  namespace fs = std::filesystem;
  const char* base = std::getenv("TMPDIR");
  const fs::path dir =
      fs::path(base ? base : "/tmp") / ("hybridsim_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

}  // namespace hs::testing
