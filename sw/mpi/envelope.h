// The message envelope in the messaging layer's 28-bit tag: an empty-message flag (1 bit; the
// layer below sends at least one byte), the wire context (5 bits), the MPI tag (15 bits) and
// the sequence number of the message from its source to its destination (7 bits), which
// keeps matching in send order however the network orders packets, and tells two messages
// with the same tag apart.
//
// Wire contexts keep communicators apart: context 0 carries every communicator's collective
// traffic (its tag names the communicator's slot and the call, comm.h), context 1 + s the
// point-to-point traffic of the communicator in slot s. So a receive matches only messages of
// its own communicator, with any tag 0..kTagUpperBound and wildcards on every communicator.
//
// Rule the sequence number relies on: messages from one rank to another are told apart while
// fewer than kSeqModulus of them are in flight past each other (the network reorders packets
// of messages in flight, not across a hundred messages between one pair).
#pragma once
#include <cstdint>

namespace hs::fw::mpi {

// What callers of a communicator say; the communicator turns it into a wire context.
enum Context : int { kPointToPoint = 0, kCollective = 1 };
constexpr int kTagUpperBound = 0x7FFF;  // the largest tag
constexpr int kWireContexts = 32;
constexpr int kCollectiveWire = 0;
constexpr uint32_t kSeqModulus = 1u << 7;

struct Envelope {
  int src = 0;  // rank
  int ctx = 0;  // wire context
  int tag = 0;
  uint32_t seq = 0;
  uint32_t bytes = 0;
  bool empty = false;
};

constexpr uint32_t pack_envelope(bool empty, int wire_ctx, int tag, uint32_t seq) {
  return (empty ? 1u : 0u) << 27 | static_cast<uint32_t>(wire_ctx & (kWireContexts - 1)) << 22 |
         static_cast<uint32_t>(tag & kTagUpperBound) << 7 | (seq & (kSeqModulus - 1));
}

inline Envelope unpack_envelope(int src, uint32_t word, uint32_t length) {
  Envelope e;
  e.src = src;
  e.empty = (word >> 27) & 1;
  e.ctx = static_cast<int>((word >> 22) & (kWireContexts - 1));
  e.tag = static_cast<int>((word >> 7) & kTagUpperBound);
  e.seq = word & (kSeqModulus - 1);
  e.bytes = e.empty ? 0 : length;
  return e;
}

}  // namespace hs::fw::mpi
