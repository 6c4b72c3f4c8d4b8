// Mirrored-counter traffic between a host core and its accelerator's PPE.
//
// Each side owns `variables` tracked values in its application memory, changes one at random
// intervals (`gap_cycles` on average) `updates` times, and sends every change as a packet
// through its ring writer; it applies the peer's packets to a mirror of the peer's values.
// Both directions run at once, each side driving its writer and its reader from one polling
// loop (the SLMPM's progress engine). If neither direction makes progress for `stall_cycles`
// the run fails: a liveness check.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"
#include "sw/slmpm/mirrored_ring.h"

namespace hs::fw::mirror {

struct Config {
  int accelerator = 0;
  slmpm::RingLayout outbound, inbound;  // this side writes outbound, reads inbound
  slmpm::CounterMode mode = slmpm::CounterMode::Mirrored;
  slmpm::Publish publish = slmpm::Publish::Eager;
  uint32_t threshold = 8;
  uint32_t variables = 16;
  uint64_t updates = 200;       // this side sends
  uint64_t peer_updates = 200;  // this side expects
  uint64_t gap_cycles = 2000;   // mean compute between updates
  uint64_t poll_cycles = 50;    // idle poll interval
  uint64_t stall_cycles = 20'000'000;
  uint64_t source = 0;  // this side's values (local address)
  uint64_t mirror = 0;  // its mirror of the peer's values (local address)
  uint64_t seed = 1;
};

struct Results {
  uint64_t sent = 0, received = 0, publications = 0, remote_reads = 0, ring_full_polls = 0;
  uint64_t read_batches = 0;  // polls that found at least one packet
  double latency_sum_ns = 0, latency_max_ns = 0;
  bool finished = false;
};

void side_program(Hal& hal, const Config& cfg, Results& out);

}  // namespace hs::fw::mirror
