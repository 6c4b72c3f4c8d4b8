// What a checker that watches the whole machine at once needs in a parallel run
// (docs/parallel.md): each partition logs the trace events of the ranks or endpoints it runs,
// each stamped with the simulated time and carrying the bytes its checker reads (taken where
// the event happens: another partition's memory is not reachable). At each window's end every
// partition hands over what it logged in the window (take) and the reporting partition replays
// all of it (replay) before the window's vote, so a violation the checker finds stops the run
// at that window's end, as a live check's does (testbench/runner/parallel_run.h). Rules:
// - Each log is in time order already (events are stamped as they happen).
// - A replay orders by time; same-time events of different partitions go in partition order
//   (the order of `by_partition`), those of one partition in the order logged. Two
//   partitions' events are at least a cut message's delay apart when one depends on the
//   other, so this is an order the sequential run could have seen, and a checker whose
//   verdicts do not depend on the order of independent same-time events reaches the
//   sequential run's.
// - Every event of a window is stamped before the window's end and every event of a later
//   window at or after it, so replaying window by window plays exactly the order of one replay
//   of the whole run's logs; an event earlier than one already played is refused (logic_error).
// - A violation is recorded at the time of the event that broke the rule
//   (CheckRegistry::replaying_at). Once this process has recorded one, a replay plays no event
//   of a later time: the sequential run stops at the violation and its checker sees none.
// The checkers' own logs (MpiTraceLog, AmiTraceLog) write and read each event's payload.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "tlm/parallel/bytes.h"

namespace hs::checkers {

// The time of the earliest violation this process has recorded, in the kernel's units
// (UINT64_MAX: none): where a replay stops playing, and what a stopped partitioned run
// advances to.
uint64_t earliest_violation_ps();

class PartitionLog {
 public:
  // Logs one event at the current simulated time; `write` appends its payload.
  void add(const std::function<void(ByteWriter&)>& write);
  // The events logged since the last take (this partition's of one window); the log is then
  // empty.
  Bytes take();
  size_t events() const { return index_.size(); }

  // Calls `play` for every event of `by_partition` (each partition's take() of one window, in
  // partition order) with its time in the kernel's units and a reader of its payload, to be
  // read whole, in the order above.
  void replay(const std::vector<Bytes>& by_partition,
              const std::function<void(uint64_t at, ByteReader&)>& play);

 private:
  struct Entry {
    uint64_t at = 0;
    uint64_t offset = 0, size = 0;  // in the log's payloads
  };
  Bytes payloads_;            // the events' payloads, end to end
  std::vector<Entry> index_;  // the events logged since the last take
  uint64_t played_ = 0;       // the time of the last event replayed
};

}  // namespace hs::checkers
