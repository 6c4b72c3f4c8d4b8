// The busy cycles of one synchronous resource that takes one thing at a time (a ramp, a
// command bus), kept as spans [start, end) rather than cycle by cycle: a run of back-to-back
// bookings is one span, so queries and bookings cost the number of gaps, not of cycles.
//
// Rules it relies on: the owner books only free cycles (book() of a busy cycle is a logic
// error); it calls retire_before(c) as time passes and from then on never asks about or books
// a cycle before c. Spans are disjoint, in order, and never touch (touching ones are merged),
// so the end of a span is always a free cycle.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hs {

class SpanSet {
 public:
  // The first cycle t >= from with [t, t + len) free.
  uint64_t first_free(uint64_t from, uint64_t len) const {
    if (spans_.size() == head_ || spans_.back().end <= from) return from;  // nothing ahead
    uint64_t t = from;
    for (size_t i = first_ending_after(from); i < spans_.size() && spans_[i].start < t + len; ++i) {
      t = spans_[i].end;  // the spans are in order: the next one starts after this end
    }
    return t;
  }

  // The end of the last booking (0 if none is live): every cycle from there on is free.
  uint64_t free_from() const { return spans_.size() == head_ ? 0 : spans_.back().end; }

  bool busy(uint64_t cycle) const {
    const size_t i = first_ending_after(cycle);
    return i < spans_.size() && spans_[i].start <= cycle;
  }

  // Marks [start, end) busy; every cycle of it must be free.
  void book(uint64_t start, uint64_t end) {
    // Bookings mostly come in order: at or after the last span.
    if (spans_.size() > head_ && spans_.back().end <= start) {
      if (spans_.back().end == start) {
        spans_.back().end = end;
      } else {
        spans_.push_back(Span{start, end});
      }
      return;
    }
    size_t i = first_ending_after(start);  // spans before i end at or before start
    const bool join_prev = i > head_ && spans_[i - 1].end == start;
    const bool join_next = i < spans_.size() && spans_[i].start == end;
    if (join_prev && join_next) {
      spans_[i - 1].end = spans_[i].end;
      spans_.erase(spans_.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (join_prev) {
      spans_[i - 1].end = end;
    } else if (join_next) {
      spans_[i].start = start;
    } else {
      spans_.insert(spans_.begin() + static_cast<std::ptrdiff_t>(i), Span{start, end});
    }
  }

  // Cycles before `cycle` will never be asked about again: drops the spans over by then.
  void retire_before(uint64_t cycle) {
    while (head_ < spans_.size() && spans_[head_].end <= cycle) ++head_;
    // Compact once the dead prefix outweighs the live spans (amortised O(1) per span).
    if (head_ > 32 && head_ * 2 > spans_.size()) {
      spans_.erase(spans_.begin(), spans_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  // Live spans (for tests and sizing).
  size_t size() const { return spans_.size() - head_; }

 private:
  struct Span {
    uint64_t start, end;
  };
  // Index of the first live span ending after `cycle`.
  size_t first_ending_after(uint64_t cycle) const {
    const auto it =
        std::partition_point(spans_.begin() + static_cast<std::ptrdiff_t>(head_), spans_.end(),
                             [cycle](const Span& s) { return s.end <= cycle; });
    return static_cast<size_t>(it - spans_.begin());
  }

  std::vector<Span> spans_;
  size_t head_ = 0;  // spans before it are retired
};

}  // namespace hs
