// What a checker that watches the whole machine at once needs in a parallel run
// (docs/parallel.md): each partition logs the trace events of the ranks or endpoints it runs,
// each stamped with the simulated time and carrying the bytes its checker reads (taken where
// the event happens: another partition's memory is not reachable), and the reporting partition
// replays every partition's log at the end, in simulated-time order. Rules:
// - Each log is in time order already (events are stamped as they happen).
// - Replay orders by time; same-time events of different partitions go in partition order
//   (the order of merge), those of one partition in the order logged. Two partitions' events
//   are at least a cut message's delay apart when one depends on the other, so this is an
//   order the sequential run could have seen, and a checker whose verdicts do not depend on
//   the order of independent same-time events reaches the sequential run's.
// - A log replays once; a violation is then found at the end of the run, not when it happens,
//   and recorded at the time of the event that broke the rule.
// The checkers' own logs (MpiTraceLog, AmiTraceLog) write and read each event's payload.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "tlm/parallel/bytes.h"

namespace hs::checkers {

class PartitionLog {
 public:
  // Logs one event at the current simulated time; `write` appends its payload.
  void add(const std::function<void(ByteWriter&)>& write);

  // This partition's events; another partition's, added after those held (partition order).
  Bytes save() const;
  void merge(const Bytes& b);
  // Calls `play` for every event held (its time in the kernel's units, and a reader of its
  // payload, to be read whole), in the order above; once: later calls do nothing.
  void replay(const std::function<void(uint64_t at, ByteReader&)>& play);
  size_t events() const { return index_.size(); }

 private:
  struct Entry {
    uint64_t at = 0;
    uint64_t offset = 0, size = 0;  // in its log's payloads
    uint64_t log = 0;               // 0: this partition's; then one per merge
  };
  std::vector<Bytes> payloads_{1};  // per log: its events' payloads, end to end
  std::vector<Entry> index_;        // every event held: this partition's, then each merged log's
  bool replayed_ = false;
};

}  // namespace hs::checkers
