// When a counter-bank request takes effect, shared by the C++ model and the RTL adapter so that
// both give identical timing.
//
// The block is clocked by the DMA clock. A request made at time t is sampled at the first rising
// edge after t (edge k is at k clock periods). The block's port takes one request per edge: a
// request whose edge is already taken (by an earlier request, or by the edges a register read
// keeps the read pipeline busy) slips to the next free edge. Decrements and writes take one edge,
// register reads `read_latency` edges. The interrupt a request raises appears `hit_zero_latency`
// edges after the request's edge.
//
// Contention is felt by register accesses: an access that slips waits for its edge, so the
// core's access takes `waited(claim)` (the time from the edge that sampled it to the edge it
// took) longer. A decrement that slips is counted but the DMA engine does not stall on it: its
// effect lands at the later edge, and the engine's packet timing is its own.
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

// The edges one request was sampled at and given.
struct EdgeClaim {
  uint64_t sampled = 0;  // the first edge after the request
  uint64_t taken = 0;    // the first free edge from `sampled` on
  uint64_t slip() const { return taken - sampled; }
};

class CounterEdges {
 public:
  explicit CounterEdges(const Clock& clock) : clock_(clock) {}

  // The edge a request made now occupies, reserving `edges` edges from it.
  EdgeClaim claim(const sc_core::sc_time& now, uint32_t edges) {
    uint64_t n = clock_.cycle_at(now);  // then corrected for the edge times' rounding
    while (n > 0 && clock_.cycles(n - 1) > now) --n;
    while (clock_.cycles(n) <= now) ++n;
    const EdgeClaim c{n, std::max(n, next_free_)};
    next_free_ = c.taken + std::max<uint32_t>(edges, 1);
    ++requests_;
    if (c.slip() > 0) ++slipped_;
    return c;
  }
  // A register access: claimed like any request, and its wait counted.
  EdgeClaim claim_access(const sc_core::sc_time& now, uint32_t edges) {
    const EdgeClaim c = claim(now, edges);
    ++accesses_;
    if (c.slip() > 0) ++accesses_delayed_;
    access_wait_edges_ += c.slip();
    return c;
  }
  // How long a request waited for its edge: the edge times' difference, so that rounding
  // matches the edges the block is clocked at.
  sc_core::sc_time waited(const EdgeClaim& c) const {
    return time_of(c.taken) - time_of(c.sampled);
  }
  sc_core::sc_time time_of(uint64_t edge) const { return clock_.cycles(edge); }

  uint64_t requests() const { return requests_; }
  uint64_t slipped() const { return slipped_; }  // requests that waited for a free edge
  uint64_t accesses() const { return accesses_; }
  uint64_t accesses_delayed() const { return accesses_delayed_; }  // register accesses that slipped
  uint64_t access_wait_edges() const { return access_wait_edges_; }  // edges they waited in all

 private:
  Clock clock_;
  uint64_t next_free_ = 0;
  uint64_t requests_ = 0, slipped_ = 0;
  uint64_t accesses_ = 0, accesses_delayed_ = 0, access_wait_edges_ = 0;
};

}  // namespace hs::counters
