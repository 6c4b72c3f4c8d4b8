#include "testbench/checkers/partition_log.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"

namespace hs::checkers {

void PartitionLog::add(const std::function<void(ByteWriter&)>& write) {
  ByteWriter w;
  std::swap(w.bytes(), payloads_);  // append to the payloads in place
  const uint64_t offset = w.bytes().size();
  write(w);
  payloads_ = w.take();
  index_.push_back({hs::now().value(), offset, payloads_.size() - offset});
}

Bytes PartitionLog::take() {
  ByteWriter w;
  w.put_vector(index_);
  w.put_vector(payloads_);
  index_.clear();
  payloads_.clear();
  return w.take();
}

uint64_t earliest_violation_ps() {
  uint64_t at = UINT64_MAX;
  for (const auto& v : CheckRegistry::instance().violations()) {
    at = std::min<uint64_t>(at, v.at.value());
  }
  return at;
}

void PartitionLog::replay(const std::vector<Bytes>& by_partition,
                          const std::function<void(uint64_t at, ByteReader&)>& play) {
  struct Held {
    Entry e;
    size_t log;
  };
  std::vector<Bytes> payloads;
  std::vector<Held> held;
  for (const Bytes& b : by_partition) {
    ByteReader r(b);
    const std::vector<Entry> entries = r.get_vector<Entry>();
    payloads.push_back(r.get_vector<uint8_t>());
    if (!r.done()) throw std::runtime_error("a partition's trace log has bytes left over");
    for (const Entry& e : entries) {
      if (e.offset + e.size > payloads.back().size()) {
        throw std::runtime_error("a partition's trace log names bytes it does not hold");
      }
      held.push_back({e, payloads.size() - 1});
    }
  }
  // Each log is in time order already and held in partition order: a stable sort by time
  // keeps partition order, then each partition's own order, among same-time events.
  std::stable_sort(held.begin(), held.end(),
                   [](const Held& a, const Held& b) { return a.e.at < b.e.at; });
  // A violation found in replay is recorded at its event's time, as the live run records it.
  struct EventTime {
    CheckRegistry& checks = CheckRegistry::instance();
    ~EventTime() { checks.replaying_at(std::nullopt); }
  } time;
  size_t violations = time.checks.violations().size();
  uint64_t stop_after = earliest_violation_ps();
  for (const Held& h : held) {
    if (h.e.at > stop_after) break;
    if (h.e.at < played_) {
      throw std::logic_error("a trace log event is earlier than one already replayed");
    }
    played_ = h.e.at;
    ByteReader r(payloads[h.log].data() + h.e.offset, h.e.size);
    time.checks.replaying_at(sc_core::sc_time::from_value(h.e.at));
    play(h.e.at, r);
    if (!r.done()) throw std::logic_error("a trace log event was not read whole");
    if (time.checks.violations().size() != violations) {
      violations = time.checks.violations().size();
      stop_after = earliest_violation_ps();
    }
  }
}

}  // namespace hs::checkers
