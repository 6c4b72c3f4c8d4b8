// One status line for a sweep: a bar, done/total, failed, running, skipped (already in the
// results) and the time to go. On a terminal it redraws in place; in a log it prints a line
// at every tenth of the way and at most every 30 s otherwise.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace hs::sweep {

class ProgressBar {
 public:
  ProgressBar(std::string label, size_t total, size_t skipped, bool enabled,
              std::FILE* out = stderr);
  void update(size_t done, size_t failed, size_t running);
  void finish();  // final state and a newline

  static std::string eta_text(double seconds);

 private:
  void draw(bool final);

  std::string label_;
  size_t total_, skipped_, done_ = 0, failed_ = 0, running_ = 0;
  bool enabled_, tty_;
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_, last_line_;
  size_t last_tenth_ = 0;
};

}  // namespace hs::sweep
