// When a counter-bank request takes effect, shared by the C++ model and the RTL adapter so that
// both give identical timing.
//
// The block is clocked by the DMA clock. A request made at time t is sampled at the first rising
// edge after t (edge k is at k clock periods). The block takes one request per edge: a request
// whose edge is already taken (by an earlier request, or by the edges a register read keeps the
// read pipeline busy) slips to the next free edge. Decrements and writes take one edge, register
// reads `read_latency` edges. The interrupt a request raises appears `hit_zero_latency` edges after
// the request's edge.
#pragma once
#include <algorithm>
#include <cstdint>
#include <systemc>

#include "tlm/timing/clock.h"

namespace hs::counters {

struct CounterTiming {
  uint32_t read_latency = 2;      // edges from a register read request to its data
  uint32_t hit_zero_latency = 2;  // edges from the decrement that reaches zero to the interrupt
};

class CounterEdges {
 public:
  explicit CounterEdges(const Clock& clock) : clock_(clock) {}

  // The edge a request made now occupies, reserving `edges` edges from it.
  uint64_t claim(const sc_core::sc_time& now, uint32_t edges) {
    uint64_t n = clock_.cycle_at(now);  // then corrected for the edge times' rounding
    while (n > 0 && clock_.cycles(n - 1) > now) --n;
    while (clock_.cycles(n) <= now) ++n;
    const uint64_t edge = std::max(n, next_free_);
    next_free_ = edge + std::max<uint32_t>(edges, 1);
    ++requests_;
    if (edge > n) ++slipped_;
    return edge;
  }
  sc_core::sc_time time_of(uint64_t edge) const { return clock_.cycles(edge); }
  uint64_t requests() const { return requests_; }
  uint64_t slipped() const { return slipped_; }  // requests that waited for a free edge

 private:
  Clock clock_;
  uint64_t next_free_ = 0;
  uint64_t requests_ = 0, slipped_ = 0;
};

}  // namespace hs::counters
