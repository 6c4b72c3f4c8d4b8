#include "testbench/sweep/progress_bar.h"

#include <unistd.h>

#include <fmt/format.h>

namespace hs::sweep {

using Clock = std::chrono::steady_clock;

ProgressBar::ProgressBar(std::string label, size_t total, size_t skipped, bool enabled,
                         std::FILE* out)
    : label_(std::move(label)),
      total_(total),
      skipped_(skipped),
      enabled_(enabled),
      tty_(isatty(fileno(out)) != 0),
      out_(out),
      start_(Clock::now()),
      last_line_(start_) {}

std::string ProgressBar::eta_text(double s) {
  if (s < 0) return "--";
  const auto t = static_cast<long>(s + 0.5);
  if (t < 60) return fmt::format("{}s", t);
  if (t < 3600) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
}

void ProgressBar::update(size_t done, size_t failed, size_t running) {
  done_ = done;
  failed_ = failed;
  running_ = running;
  draw(false);
}

void ProgressBar::finish() {
  draw(true);
}

void ProgressBar::draw(bool final) {
  if (!enabled_) return;
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const size_t todo = total_ - skipped_;
  // Time to go from the rate of points finished in this run (skipped ones cost nothing).
  const double eta =
      done_ ? elapsed / static_cast<double>(done_) * static_cast<double>(todo - done_) : -1;
  constexpr size_t kWidth = 30;
  const size_t filled = total_ ? (skipped_ + done_) * kWidth / total_ : kWidth;
  const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
  std::string line = fmt::format("{} [{}] {}/{} done, {} failed, {} running", label_, bar,
                                 skipped_ + done_, total_, failed_, running_);
  if (skipped_) line += fmt::format(", {} already in results", skipped_);
  line += final ? fmt::format(", {} elapsed", eta_text(elapsed))
                : fmt::format(", ETA {}", eta_text(eta));
  if (tty_) {
    std::fprintf(out_, "\r%s\033[K%s", line.c_str(), final ? "\n" : "");
  } else {
    const size_t tenth = todo ? done_ * 10 / todo : 10;
    const bool due = std::chrono::duration<double>(now - last_line_).count() >= 30;
    if (!final && tenth == last_tenth_ && !due) return;
    last_tenth_ = tenth;
    last_line_ = now;
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

}  // namespace hs::sweep
