// Many small timed actions handled by one method process: a network of thousands of routers
// posts each packet hop, credit return and arbitration retry here instead of creating a
// SystemC event per router. Actions at equal times run in the order they were posted, so
// runs are deterministic. The heap costs O(log n) per action and no thread switches.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <systemc>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>
#include <vector>

#include "tlm/kernel/now.h"

namespace hs {

template <class Action>
class EventHeap {
 public:
  using Handler = std::function<void(const Action&)>;

  // Must be constructed during elaboration (inside the owning module's constructor).
  EventHeap(const char* name, Handler handler) : handler_(std::move(handler)) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&wake_);
    opts.dont_initialize();
    sc_core::sc_spawn([this] { dispatch(); }, sc_core::sc_gen_unique_name(name), &opts);
  }

  // Runs `a` at absolute time `at` (>= now).
  void post(const sc_core::sc_time& at, const Action& a) {
    const uint64_t t = at.value();
    heap_.push(Entry{t, seq_++, a});
    if (!dispatching_ && t < wake_at_) {
      const uint64_t now = hs::now().value();
      wake_at_ = t;
      wake_.notify(sc_core::sc_time::from_value(t - now));
    }
  }

  size_t pending() const { return heap_.size(); }
  uint64_t handled() const { return handled_; }

 private:
  struct Entry {
    uint64_t at, seq;
    Action action;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  void dispatch() {
    const uint64_t now = hs::now().value();
    dispatching_ = true;
    while (!heap_.empty() && heap_.top().at <= now) {
      const Action a = heap_.top().action;
      heap_.pop();
      ++handled_;
      handler_(a);
    }
    dispatching_ = false;
    wake_at_ = heap_.empty() ? UINT64_MAX : heap_.top().at;
    if (!heap_.empty()) wake_.notify(sc_core::sc_time::from_value(wake_at_ - now));
  }

  Handler handler_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  sc_core::sc_event wake_;
  uint64_t wake_at_ = UINT64_MAX;
  uint64_t seq_ = 0;
  uint64_t handled_ = 0;
  bool dispatching_ = false;
};

}  // namespace hs
