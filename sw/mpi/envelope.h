// The message envelope in the messaging layer's 28-bit tag: an empty-message flag (1 bit; the
// layer below sends at least one byte), the context (1 bit: point-to-point or collective, so
// the two never match each other), the MPI tag (15 bits) and the sequence number of the
// message from its source to its destination (11 bits), which keeps matching in send order
// however the network orders packets, and tells two messages with the same tag apart.
#pragma once
#include <cstdint>

namespace hs::fw::mpi {

enum Context : int { kPointToPoint = 0, kCollective = 1 };
constexpr int kTagUpperBound = 0x7FFF;  // the largest tag
constexpr uint32_t kSeqModulus = 1u << 11;

struct Envelope {
  int src = 0;  // rank
  int ctx = kPointToPoint;
  int tag = 0;
  uint32_t seq = 0;
  uint32_t bytes = 0;
  bool empty = false;
};

constexpr uint32_t pack_envelope(bool empty, int ctx, int tag, uint32_t seq) {
  return (empty ? 1u : 0u) << 27 | static_cast<uint32_t>(ctx & 1) << 26 |
         static_cast<uint32_t>(tag & kTagUpperBound) << 11 | (seq & (kSeqModulus - 1));
}

inline Envelope unpack_envelope(int src, uint32_t word, uint32_t length) {
  Envelope e;
  e.src = src;
  e.empty = (word >> 27) & 1;
  e.ctx = static_cast<int>((word >> 26) & 1);
  e.tag = static_cast<int>((word >> 11) & kTagUpperBound);
  e.seq = word & (kSeqModulus - 1);
  e.bytes = e.empty ? 0 : length;
  return e;
}

}  // namespace hs::fw::mpi
