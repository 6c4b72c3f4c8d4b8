// What split-transaction links carry (PCIe TLPs, HyperTransport packets): posted writes, read
// requests and their completions. Links move packets, bridges forward and translate them, and
// transaction ports (tlm/link/transaction_port.h) make them from bus accesses and turn them
// back into accesses: no packet is private to one link.
//
// A read is a request packet answered by one or more completion packets on the other
// direction, each carrying the requester's `request` (whoever made the request, opaque to links
// and bridges) and where its bytes go in the request (`offset`); the last one says so. A bridge
// that forwards a read makes its own request and answers the original one as its own
// completions come back.
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

namespace hs::link {

enum class PacketKind : uint8_t {
  Write,      // posted memory write (PCIe MWr, HyperTransport posted sized write)
  Read,       // read request (PCIe MRd, HyperTransport sized read)
  ReadData,   // completion with data (PCIe CplD, HyperTransport read response)
  ReadError,  // completion without data: the request failed (unsupported request)
};
constexpr int kPacketKinds = 4;

// Whoever waits for a read's completions: a requester derives its own bookkeeping from it.
struct ReadRequest {
  virtual ~ReadRequest() = default;
};

struct Packet {
  PacketKind kind = PacketKind::Write;
  uint64_t addr = 0;
  uint32_t len = 0;                // payload bytes (Write, ReadData); bytes asked for (Read)
  std::vector<uint8_t> data;       // the payload of a Write or ReadData
  ReadRequest* request = nullptr;  // Read and its completions: whose read
  uint32_t offset = 0;             // ReadData: where its bytes go in the request
  bool last = false;               // ReadData, ReadError: the request's last completion
  // Set by the link delivering it: when its first and last bytes arrived at the receiver.
  sc_core::sc_time head, tail;

  bool has_data() const { return kind == PacketKind::Write || kind == PacketKind::ReadData; }
  bool is_completion() const {
    return kind == PacketKind::ReadData || kind == PacketKind::ReadError;
  }
};

}  // namespace hs::link
