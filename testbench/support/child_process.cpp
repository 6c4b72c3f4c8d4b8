#include "testbench/support/child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace hs::testing {

nlohmann::json run_in_child(const std::function<nlohmann::json()>& work) {
  int fds[2];
  if (pipe(fds) != 0) return {{"error", "pipe failed"}};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string text;
    try {
      text = work().dump();
    } catch (const std::exception& e) {
      text = nlohmann::json{{"error", e.what()}}.dump();
    }
    (void)!write(fds[1], text.data(), text.size());
    std::fflush(nullptr);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (text.empty()) return {{"error", "child died (signal or crash)"}};
  return nlohmann::json::parse(text);
}

}  // namespace hs::testing
