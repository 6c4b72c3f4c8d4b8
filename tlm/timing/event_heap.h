// Many small timed actions handled by one method process: a network of thousands of routers
// posts each packet hop, credit return and arbitration retry here instead of creating a
// SystemC event per router. Actions at equal times run in the order they were posted, so
// runs are deterministic. The heap (4-ary: half the depth of a binary one, and the children it
// compares sit side by side in memory) costs O(log n) per action and no thread switches; actions
// posted for the current instant while it is being handled skip the heap (a FIFO keeps their
// order, which is the heap's: they come after everything already due).
//
// An action whose need is not known yet can keep its place in that order: reserve() takes the
// sequence number post() would have used, post_reserved() later posts it exactly where it
// would have run, and passed() says whether that place has been handled already. hold_until()
// keeps the process waking at a time without an action, so an action left unposted still
// ends the run at the time it would have.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
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
  void post(const sc_core::sc_time& at, const Action& a) { post(at.value(), a); }
  void post(uint64_t t, const Action& a) {
    if (dispatching_ && t == now_) {
      now_queue_.push_back(Entry{t, seq_++, a});
      return;
    }
    push(Entry{t, seq_++, a});
  }

  uint64_t reserve() { return seq_++; }
  // Runs `a` at `at` in the place `seq` (from reserve()) holds; that place must not have passed.
  void post_reserved(uint64_t at, uint64_t seq, const Action& a) { push(Entry{at, seq, a}); }
  bool passed(uint64_t at, uint64_t seq) const {
    return ran_any_ && (at < last_at_ || (at == last_at_ && seq <= last_seq_));
  }
  void hold_until(uint64_t at) {
    if (at <= horizon_) return;
    horizon_ = at;
    if (!dispatching_ && heap_.empty() && at < wake_at_) wake(at);
  }

  size_t pending() const { return heap_.size() + now_queue_.size() - now_head_; }
  uint64_t handled() const { return handled_; }

 private:
  struct Entry {
    uint64_t at, seq;
    Action action;
    // Free of branches (bitwise, not short-circuit): which entry comes first is a coin toss
    // the branch predictor loses, and the heap asks it several times per action.
    bool before(const Entry& o) const { return (at < o.at) | ((at == o.at) & (seq < o.seq)); }
  };
  static constexpr size_t kArity = 4;

  void push(const Entry& e) {
    size_t i = heap_.size();
    heap_.push_back(e);
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!e.before(heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
    if (!dispatching_ && e.at < wake_at_) wake(e.at);
  }
  Entry pop() {
    const Entry top = heap_.front();
    const Entry last = heap_.back();
    heap_.pop_back();
    const size_t n = heap_.size();
    if (n == 0) return top;
    // Bottom-up (Floyd): the hole goes down to a leaf along the earliest children without
    // comparing them to `last`, which then moves up from there; taken from the bottom, it
    // rarely moves far, so this saves a compare per level.
    size_t i = 0;
    for (;;) {
      const size_t first = kArity * i + 1;
      if (first >= n) break;
      size_t best = first;
      for (size_t c = first + 1; c < std::min(first + kArity, n); ++c) {
        best = heap_[c].before(heap_[best]) ? c : best;
      }
      heap_[i] = heap_[best];
      i = best;
    }
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!last.before(heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = last;
    return top;
  }
  void wake(uint64_t at) {
    wake_at_ = at;
    wake_.notify(sc_core::sc_time::from_value(at - hs::now().value()));
  }
  void run(const Entry& e) {
    ran_any_ = true;
    last_at_ = e.at;
    last_seq_ = e.seq;
    ++handled_;
    handler_(e.action);
  }

  void dispatch() {
    now_ = hs::now().value();
    dispatching_ = true;
    for (;;) {
      // Everything already due was posted before the FIFO's actions: it runs first.
      if (!heap_.empty() && heap_.front().at <= now_) {
        run(pop());
      } else if (now_head_ < now_queue_.size()) {
        const Entry e = now_queue_[now_head_++];
        run(e);
      } else {
        break;
      }
    }
    now_queue_.clear();
    now_head_ = 0;
    dispatching_ = false;
    wake_at_ = UINT64_MAX;
    if (!heap_.empty()) {
      wake(heap_.front().at);
    } else if (horizon_ > now_) {
      wake(horizon_);
    }
  }

  Handler handler_;
  std::vector<Entry> heap_;       // a 4-ary min-heap on (at, seq)
  std::vector<Entry> now_queue_;  // actions posted for the instant being handled
  size_t now_head_ = 0;
  sc_core::sc_event wake_;
  uint64_t wake_at_ = UINT64_MAX, now_ = 0, horizon_ = 0;
  uint64_t last_at_ = 0, last_seq_ = 0;
  uint64_t seq_ = 0;
  uint64_t handled_ = 0;
  bool dispatching_ = false, ran_any_ = false;
};

}  // namespace hs
