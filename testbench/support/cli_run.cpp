#include "testbench/support/cli_run.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace hs::testing {

std::string hybridsim_bin() {
  return HYBRIDSIM_BIN;
}

CliResult hybridsim(const std::string& args) {
  return run_shell(hybridsim_bin() + " " + args + " 2>&1");
}

CliResult run_shell(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

RunHold::RunHold(const std::string& name, double ns) : fifo(temp_path(name)) {
  std::filesystem::remove(fifo);
  if (mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error("mkfifo " + fifo + " failed");
  env = "HYBRIDSIM_TEST_HOLD=" + std::to_string(ns) + ":" + fifo;
}

void RunHold::wait(int pid) const {
  // Non-blocking, so that a run that dies before its hold fails the test instead of hanging
  // it; the FIFO reports nothing until the run has written and closed its end.
  const int fd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + fifo);
  std::string text;
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) > 0) {
      char buf[64];
      const ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0) text.append(buf, static_cast<size_t>(n));
      if (n == 0 || text.find('\n') != std::string::npos) break;
      continue;
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      close(fd);
      throw std::runtime_error("the run ended before its hold, status " + std::to_string(status));
    }
  }
  close(fd);
  if (text != "held\n") throw std::runtime_error("the run did not hold: '" + text + "'");
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

std::string without_sanitizer_notices(const std::string& text) {
  std::string out, line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    const bool notice = line.rfind("==", 0) == 0 ||
                        line.find("False positive error reports") == 0 ||
                        line.find("github.com/google/sanitizers") != std::string::npos;
    if (!notice) out += line + "\n";
  }
  return out;
}

}  // namespace hs::testing
