// Cell microbenchmarks: the behaviours Cell programmers measure, as firmware on the SPUs and
// the PPE. Each returns what it measured in cycles of the core that ran it.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/hal/hal.h"

namespace hs::fw::cell_micro {

// DMA latency: one command at a time, each issued and waited for as a program does (the
// command's channel writes, then a tag-status wait for "all"): SPU cycles from the first
// channel write to the status, per command. `ea` is walked in steps of `bytes` within `span`.
struct Latency {
  bool put = false;
  uint64_t ea = 0;
  uint64_t span = 0;
  uint32_t bytes = 128;
  int iterations = 16;
};
std::vector<uint64_t> dma_latency(Hal& hal, const Latency& cfg);

// A double-buffered stream: GET block i + 1 into one buffer while computing on block i in
// the other (`compute_cycles_per_byte` per byte). Returns the SPU cycles for `bytes`.
struct Stream {
  uint64_t ea = 0;
  uint64_t bytes = 0;
  uint32_t buffer = 16384;
  double compute_cycles_per_byte = 0;
};
uint64_t double_buffered_get(Hal& hal, const Stream& cfg);

// Mailbox ping-pong: the SPU echoes each inbound entry plus one into its outbound mailbox;
// the PPE writes, polls the status until the answer is there, reads it. PPE cycles per round
// trip.
void mailbox_echo(Hal& hal, int rounds);
std::vector<uint64_t> mailbox_round_trips(Hal& hal, int spe, int rounds);

// An atomic counter: `increments` times GETLLAR, add one, PUTLLC until it stores (the line
// at `counter` through the local-store line at `lsa`). Returns the PUTLLCs that failed.
uint64_t atomic_increments(Hal& hal, uint64_t counter, uint32_t lsa, int increments);

}  // namespace hs::fw::cell_micro
