// What AMI instructions look like on the wire: packet types in the software header word,
// the SEND header that leads every message, and the control records (STOP, CTS, ACK, RTS,
// CREDIT). Every packet of an AMI FIFO travels in order between a pair of endpoints (the
// torus adapter routes them deterministically; the shared-memory FIFO is a ring).
#pragma once
#include <algorithm>
#include <cstdint>

namespace hs::fw::ami {

enum class Protocol : uint8_t {
  StopA = 0,       // eager; on STOP the receiver discards and pulls
  StopB = 1,       // eager from the top, receiver GETs from the bottom, CTS with E
  StopC = 2,       // eager; STOP names a receive buffer, the sender PUTs the rest
  Eager = 3,       // baseline: fixed eager limit with credit flow control
  Rendezvous = 4,  // baseline: RTS, receiver GETs everything, ACK
};
const char* protocol_name(Protocol p);
bool parse_protocol(const char* name, Protocol& out);
inline bool is_stop_variant(Protocol p) {
  return p <= Protocol::StopC;
}

// Software header word: type in the top 4 bits, message number below.
enum PacketType : uint32_t {
  kSendHead = 1,   // SendHeader followed by the message's first bytes
  kEagerData = 2,  // message bytes at the entry's offset
  kStop = 3,
  kCts = 4,
  kAck = 5,
  kCredit = 6,
};
constexpr uint32_t kMsgMask = 0x0FFFFFFF;
inline uint32_t pack(uint32_t type, uint32_t msg) {
  return type << 28 | (msg & kMsgMask);
}
inline uint32_t type_of(uint32_t sw0) {
  return sw0 >> 28;
}
inline uint32_t msg_of(uint32_t sw0) {
  return sw0 & kMsgMask;
}

// Leads every message: where the data lives at the sender and how to claim it.
struct SendHeader {
  uint64_t buf = 0;      // send buffer at the sender
  uint32_t size = 0;     // message bytes
  uint32_t tag = 0;      // RECEIVE matching
  uint16_t counter = 0;  // sender's claim counter (variant B's two streams share it)
  uint8_t protocol = 0;  // Protocol
  uint8_t reserved[13] = {};
};
static_assert(sizeof(SendHeader) == 32, "SEND headers are 32 bytes");

// STOP, CTS, ACK and CREDIT.
struct ControlRecord {
  uint64_t buf = 0;      // STOP (C): where byte 0 of the message goes at the receiver
  uint32_t bytes = 0;    // STOP (C): receive buffer size; CTS: E; CREDIT: blocks returned
  uint32_t offset = 0;   // STOP (C): buf's offset from the counter's base
  uint16_t counter = 0;  // STOP (C): the receiver's completion counter the PUT decrements
  uint8_t has_buffer = 0;
  uint8_t cause = 0;  // STOP: StopCause
  uint8_t reserved[12] = {};
};
static_assert(sizeof(ControlRecord) == 32, "control records are 32 bytes");

// Sizes of the eager packets after the first (which carries the header): `first` bytes,
// then each `growth` times the last, up to `max`.
struct EagerSchedule {
  uint32_t first = 1024;
  uint32_t growth = 1;  // 1: equal sizes
  uint32_t max = 65536;
  uint32_t size(uint32_t k) const {
    uint64_t s = first;
    for (uint32_t i = 0; i < k && s < max; ++i) s *= growth;
    return static_cast<uint32_t>(std::min<uint64_t>(s, max));
  }
};

// Reception entries a fully eager message of `size` bytes makes, when the first packet
// carries `head_data` bytes and entries carry at most `payload` (credits count these).
inline uint32_t eager_entries(uint32_t size, uint32_t head_data, uint32_t payload,
                              const EagerSchedule& s) {
  uint32_t n = 1, at = std::min(size, head_data);
  for (uint32_t k = 0; at < size; ++k) {
    const uint32_t len = std::min(s.size(k), size - at);
    n += (len + payload - 1) / payload;
    at += len;
  }
  return n;
}

// Message bytes a SEND header packet carries after the header.
inline uint32_t head_data_bytes(Protocol p, uint32_t size, uint32_t payload) {
  if (p == Protocol::Rendezvous) return 0;
  return std::min<uint32_t>(size, payload - static_cast<uint32_t>(sizeof(SendHeader)));
}

// Eager baseline: the credits (temporary-space blocks of one packet payload) each peer gets,
// and what a message of `size` bytes takes.
inline uint32_t eager_credits(uint32_t temp_bytes, uint32_t credit_entries, uint32_t payload) {
  return credit_entries ? credit_entries : temp_bytes / payload;
}
inline uint32_t eager_credits_needed(uint32_t size, uint32_t payload, const EagerSchedule& s) {
  return eager_entries(size, head_data_bytes(Protocol::Eager, size, payload), payload, s);
}

}  // namespace hs::fw::ami
