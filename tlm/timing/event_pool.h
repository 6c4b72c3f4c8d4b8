// Reusable events for threads that block one at a time (waiters for slots and tokens). A new
// sc_event per wait would allocate the kernel's waiter list each time; pooled events keep it.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

namespace hs {

class EventPool {
 public:
  sc_core::sc_event* take() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<sc_core::sc_event>());
      return all_.back().get();
    }
    sc_core::sc_event* e = free_.back();
    free_.pop_back();
    return e;
  }
  void give(sc_core::sc_event* e) { free_.push_back(e); }

 private:
  std::vector<std::unique_ptr<sc_core::sc_event>> all_;
  std::vector<sc_core::sc_event*> free_;
};

}  // namespace hs
