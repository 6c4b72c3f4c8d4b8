// A rate over a sliding window of a cumulative quantity the firmware samples: the core's
// application cycles (processor utilisation) or the adapter's received bytes (link
// utilisation). Samples older than the window are dropped.
#pragma once
#include <cstdint>
#include <deque>
#include <utility>

namespace hs::fw::ami {

class WindowRate {
 public:
  void sample(uint64_t t, uint64_t cumulative) {
    s_.emplace_back(t, cumulative);
    while (s_.size() > 2 && s_[1].first + window_ <= t) s_.pop_front();
  }
  void set_window(uint64_t w) { window_ = w; }
  // Amount per time unit over the window (0 until it spans some time).
  double rate() const {
    if (s_.size() < 2 || s_.back().first == s_.front().first) return 0;
    return double(s_.back().second - s_.front().second) /
           double(s_.back().first - s_.front().first);
  }

 private:
  std::deque<std::pair<uint64_t, uint64_t>> s_;
  uint64_t window_ = 20000;
};

}  // namespace hs::fw::ami
