#include "tlm/stats/windowed_total.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"

namespace hs {

void WindowedTotal::settle() {
  const uint64_t now_ps = hs::now().value();
  // Intervals over by now lie inside every window a later report can take.
  auto running = std::partition(kept_.begin(), kept_.end(),
                                [now_ps](const Interval& iv) { return iv.end_ps <= now_ps; });
  for (auto it = kept_.begin(); it != running; ++it) {
    settled_ += it->amount;
    settled_span_ps_ += it->end_ps - it->start_ps;
    settled_intervals_ += it->count;
  }
  kept_.erase(kept_.begin(), running);
  settled_at_ps_ = std::max(settled_at_ps_, now_ps);
  // Twice what is left: the next settlement is paid for by at least as many adds.
  settle_when_ = std::max(kMinKept, 2 * kept_.size());
}

void WindowedTotal::refuse_before_settled(const sc_core::sc_time& t) const {
  if (t.value() < settled_at_ps_) {
    throw ModelError(
        fmt::format("a statistic's window ending at {} ps ends before {} ps, the "
                    "time of an interval already recorded",
                    t.value(), settled_at_ps_));
  }
}

double WindowedTotal::within(const sc_core::sc_time& t) const {
  refuse_before_settled(t);
  const uint64_t t_ps = t.value();
  uint64_t whole = settled_;
  double part = 0;
  for (const Interval& iv : kept_) {
    if (iv.end_ps <= t_ps) {
      whole += iv.amount;
    } else if (iv.start_ps < t_ps) {
      // The elapsed share of an interval in progress (for busy time: exactly t - start).
      part += static_cast<double>(t_ps - iv.start_ps) *
              (static_cast<double>(iv.amount) / static_cast<double>(iv.end_ps - iv.start_ps));
    }
  }
  return static_cast<double>(whole) + part;
}

double WindowedTotal::span_within(const sc_core::sc_time& t) const {
  refuse_before_settled(t);
  const uint64_t t_ps = t.value();
  uint64_t span = settled_span_ps_;
  for (const Interval& iv : kept_) {
    if (iv.start_ps < t_ps) span += std::min(iv.end_ps, t_ps) - iv.start_ps;
  }
  return static_cast<double>(span);
}

uint64_t WindowedTotal::intervals_within(const sc_core::sc_time& t) const {
  refuse_before_settled(t);
  const uint64_t t_ps = t.value();
  uint64_t n = settled_intervals_;
  for (const Interval& iv : kept_) {
    if (iv.end_ps <= t_ps || iv.count == 1) {
      n += iv.start_ps <= t_ps ? iv.count : 0;
    } else if (iv.start_ps <= t_ps) {
      // Merged back-to-back intervals: those begun by t, assuming them evenly spread.
      const double share =
          static_cast<double>(t_ps - iv.start_ps) / static_cast<double>(iv.end_ps - iv.start_ps);
      n += static_cast<uint64_t>(std::ceil(share * static_cast<double>(iv.count)));
    }
  }
  return n;
}

void WindowedTotal::save(ByteWriter& w) const {
  w.put(total_);
  w.put(settled_);
  w.put(settled_span_ps_);
  w.put(settled_intervals_);
  w.put(settled_at_ps_);
  w.put<uint64_t>(kept_.size());
  for (const Interval& iv : kept_) {
    w.put(iv.start_ps);
    w.put(iv.end_ps);
    w.put(iv.amount);
    w.put(iv.count);
  }
}

void WindowedTotal::merge(ByteReader& r) {
  total_ += r.get<uint64_t>();
  settled_ += r.get<uint64_t>();
  settled_span_ps_ += r.get<uint64_t>();
  settled_intervals_ += r.get<uint64_t>();
  settled_at_ps_ = std::max(settled_at_ps_, r.get<uint64_t>());
  const auto n = r.get<uint64_t>();
  for (uint64_t i = 0; i < n; ++i) {
    const auto start = r.get<uint64_t>(), end = r.get<uint64_t>(), amount = r.get<uint64_t>();
    kept_.emplace_back(start, end, amount);
    kept_.back().count = r.get<uint64_t>();
  }
}

}  // namespace hs
