#include "testbench/checkers/partition_log.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"

namespace hs::checkers {

void PartitionLog::add(const std::function<void(ByteWriter&)>& write) {
  ByteWriter w;
  std::swap(w.bytes(), payloads_[0]);  // append to this partition's payloads in place
  const uint64_t offset = w.bytes().size();
  write(w);
  payloads_[0] = w.take();
  index_.push_back({hs::now().value(), offset, payloads_[0].size() - offset, 0});
}

Bytes PartitionLog::save() const {
  std::vector<Entry> own;
  for (const Entry& e : index_) {
    if (e.log == 0) own.push_back(e);
  }
  ByteWriter w;
  w.put_vector(own);
  w.put_vector(payloads_[0]);
  return w.take();
}

void PartitionLog::merge(const Bytes& b) {
  ByteReader r(b);
  const uint64_t log = payloads_.size();
  std::vector<Entry> entries = r.get_vector<Entry>();
  payloads_.push_back(r.get_vector<uint8_t>());
  if (!r.done()) throw std::runtime_error("a partition's trace log has bytes left over");
  for (Entry& e : entries) {
    if (e.offset + e.size > payloads_.back().size()) {
      throw std::runtime_error("a partition's trace log names bytes it does not hold");
    }
    e.log = log;
    index_.push_back(e);
  }
}

void PartitionLog::replay(const std::function<void(uint64_t at, ByteReader&)>& play) {
  if (replayed_) return;
  replayed_ = true;
  // Each log is in time order already and held in merge order: a stable sort by time keeps
  // partition order, then each partition's own order, among same-time events.
  std::stable_sort(index_.begin(), index_.end(), [](const Entry& a, const Entry& b) {
    return a.at != b.at ? a.at < b.at : a.log < b.log;
  });
  // A violation found in replay is recorded at its event's time, as the live run records it.
  struct EventTime {
    CheckRegistry& checks = CheckRegistry::instance();
    ~EventTime() { checks.replaying_at(std::nullopt); }
  } time;
  for (const Entry& e : index_) {
    ByteReader r(payloads_[e.log].data() + e.offset, e.size);
    time.checks.replaying_at(sc_core::sc_time::from_value(e.at));
    play(e.at, r);
    if (!r.done()) throw std::logic_error("a trace log event was not read whole");
  }
  index_.clear();
  index_.shrink_to_fit();
  payloads_ = std::vector<Bytes>(1);
}

}  // namespace hs::checkers
