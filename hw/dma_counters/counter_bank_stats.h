// The statistics of one counter bank's port, reported under `<module>.<bank>` (the module
// being built when the bank is, so `torus.x0y0z0.dma.inj_counters`): the requests it took and
// how many slipped behind a busy edge, and the register accesses that waited for one, with the
// DMA-clock cycles they waited. Both bank implementations register the same set, so C++ and RTL
// runs report identical statistics.
#pragma once
#include <string>
#include <systemc>

#include "hw/dma_counters/counter_timing.h"
#include "tlm/stats/statistics.h"

namespace hs::counters {

class CounterBankStats {
 public:
  CounterBankStats(const std::string& bank, const CounterEdges& edges) : group_(path(bank)) {
    auto of = [e = &edges](uint64_t (CounterEdges::*count)() const) {
      return [e, count] { return static_cast<double>((e->*count)()); };
    };
    group_.derived("requests", "requests", "register accesses and decrements the bank's port took",
                   of(&CounterEdges::requests));
    group_.derived("slipped", "requests",
                   "requests that slipped behind a busy edge (one request per edge)",
                   of(&CounterEdges::slipped));
    group_.derived("register_accesses", "accesses", "register reads and writes by cores",
                   of(&CounterEdges::accesses));
    group_.derived("accesses_delayed", "accesses",
                   "register accesses that waited for a busy edge (a decrement's or another "
                   "access's)",
                   of(&CounterEdges::accesses_delayed));
    group_.derived("access_wait", "cycles",
                   "DMA-clock cycles register accesses waited for busy edges, in all",
                   of(&CounterEdges::access_wait_edges));
  }

 private:
  static std::string path(const std::string& bank) {
    const sc_core::sc_module* m = sc_core::sc_get_curr_simcontext()->hierarchy_curr();
    return m ? std::string(m->name()) + "." + bank : bank;
  }
  StatGroup group_;
};

}  // namespace hs::counters
