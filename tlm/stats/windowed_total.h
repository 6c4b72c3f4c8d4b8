// An amount delivered over intervals of time, totalled over a run's window [0, t]: the busy
// time of a resource (each interval carries its own length) or the bytes through a wire or
// port (each interval carries the bytes it moves). An interval counts only its share inside
// the window, prorated linearly for one still in progress at t, so a figure taken at t never
// includes work booked to happen after t (a link reserves wire time for packets that finish
// after a time-limited run stops).
//
// Rules it relies on:
// - a window ends no earlier than the simulated time of any add() before it (a report is taken
//   at or after the time it describes); an earlier window is refused with a ModelError;
// - intervals may arrive in any order (a calendar books gaps before later bookings) and may
//   overlap; overlap is counted twice, which is what the physical-limit checks look for.
//
// Cost: add() is O(1) amortised, and an interval that begins where the last one ended (a
// wire or port kept busy back to back) merges into it, so a saturated resource keeps one
// growing interval rather than one per transfer: its share inside a window is then prorated
// over the merged span, which is exact for busy time and within one transfer's amount for
// bytes. Intervals still running are kept; those that ended by the
// current simulated time are folded into one total whenever the kept list has doubled, so each
// interval is examined a bounded number of times. A window's total costs O(intervals kept).
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

#include "tlm/parallel/bytes.h"

namespace hs {

class WindowedTotal {
 public:
  // One interval [start, end) (end >= start) carrying `amount`.
  void add(const sc_core::sc_time& start, const sc_core::sc_time& end, uint64_t amount) {
    add_ps(start.value(), end.value(), amount);
  }
  void add_ps(uint64_t start_ps, uint64_t end_ps, uint64_t amount) {
    total_ += amount;
    if (!kept_.empty() && kept_.back().end_ps == start_ps && start_ps < end_ps) {
      Interval& last = kept_.back();
      last.end_ps = end_ps;
      last.amount += amount;
      ++last.count;
      return;
    }
    // Constructed in place, field by field: an aggregate pushed whole is built on the stack
    // and copied with wide loads that stall on the narrow stores just made (store forwarding).
    kept_.emplace_back(start_ps, end_ps, amount);
    if (kept_.size() >= settle_when_) settle();
  }

  // The amount delivered within [0, t].
  double within(const sc_core::sc_time& t) const;
  // The time the intervals cover within [0, t], in picoseconds (overlaps counted twice): for
  // the bytes a port moves, the time it is busy moving them.
  double span_within(const sc_core::sc_time& t) const;
  // Intervals that started within [0, t] (each may be short by the time resolution).
  uint64_t intervals_within(const sc_core::sc_time& t) const;
  // Every amount added, delivered by now or not.
  uint64_t total() const { return total_; }
  // Moves the figures between the partitions of a parallel run: merge adds another
  // partition's intervals to these (read only at a time past both partitions' ends).
  void save(ByteWriter& w) const;
  void merge(ByteReader& r);

 private:
  struct Interval {
    Interval(uint64_t s, uint64_t e, uint64_t a) : start_ps(s), end_ps(e), amount(a), count(1) {}
    uint64_t start_ps, end_ps, amount, count;  // count: intervals merged into this one
  };
  void settle();  // folds in the intervals over by the current simulated time
  void refuse_before_settled(const sc_core::sc_time& t) const;

  uint64_t total_ = 0;
  uint64_t settled_ = 0;            // amounts of intervals that ended by settled_at_ps_
  uint64_t settled_span_ps_ = 0;    // their lengths
  uint64_t settled_intervals_ = 0;  // how many intervals those were
  uint64_t settled_at_ps_ = 0;
  std::vector<Interval> kept_;  // intervals not yet folded in, in arrival order
  size_t settle_when_ = kMinKept;
  static constexpr size_t kMinKept = 16;
};

}  // namespace hs
