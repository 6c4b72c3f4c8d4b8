// A HyperTransport link (HT 1.x/2.0 as on the TriBlade: an Opteron socket to its HT-to-PCIe
// bridge, and the coherent link between the two sockets): a split-transaction link
// (tlm/link/split_link.h states the rules of its wires and credits) carrying HyperTransport
// packets.
//
// - Wires: `width` bits each way at `clock`, double data rate; every lane spends 4 of each 516
//   bit times on the periodic CRC, so a 16-bit link at 1 GHz carries 4 GB/s raw and 3.969 GB/s
//   of packets per direction.
// - Packets: a posted sized write is an 8-byte request (12 with the 64-bit address extension,
//   needed above 2^40) and a data packet; a sized read an 8- (12-) byte request; a read
//   response a 4-byte control packet and its data; an error response 4 bytes. Data packets
//   hold 4 to 64 bytes in doublewords (a write that is not whole doublewords carries a 4-byte
//   byte mask before its data); requests never cross a 64-byte boundary, and one response
//   answers each read.
// - Flow control: the receiver advertises command buffers and 64-byte data buffers per virtual
//   channel (posted, non-posted, response); a packet takes a command buffer and, with data,
//   one data buffer. Buffers come back in 4-byte NOP packets, `nop_delay` after the receiver
//   took the packet. No link-level retry (HyperTransport 3's is not modelled): no ACKs, no
//   replay, no CRC-error faults.
// - Up to `tags` (32, the 5-bit SrcTag) reads outstanding per requester.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>

#include "tlm/link/split_link.h"
#include "tlm/link/transaction_port.h"

namespace hs::ht {

struct HtConfig {
  int width = 16;            // bits per direction
  double clock_hz = 1.0e9;   // link clock; data moves on both edges
  double latency_ns = 10;    // one way, after a packet's last byte leaves
  double nop_delay_ns = 10;  // receiver's delay before a NOP returns buffers
  uint32_t tx_queue = 4;     // packets a transmitter buffers before its sender waits
  uint32_t tags = 32;        // SrcTags: outstanding reads per requester
  // Receiver buffers per virtual channel: commands, and 64-byte data buffers.
  uint32_t posted_cmd = 8, posted_data = 8;
  uint32_t nonposted_cmd = 8;
  uint32_t response_cmd = 8, response_data = 8;
  bool coherent = false;  // between the host's sockets (not a parameter: what the link is)

  static constexpr uint32_t kMaxPayload = 64;
  static constexpr uint32_t kNopBytes = 4;

  // Declares every parameter under `prefix` (e.g. node0.ht0) with these defaults.
  static HtConfig declare(const std::string& prefix, const HtConfig& defaults);
  // Packet bytes per second, one direction: raw rate less the periodic CRC's share.
  double bytes_per_second() const;
};

class HtFormat : public link::LinkFormat {
 public:
  HtFormat();
  uint32_t wire_bytes(const link::Packet& p) const override;
  uint32_t max_wire_bytes() const override;
  uint32_t header_bytes(const link::Packet& p) const override;
  uint32_t data_credits(const link::Packet& p) const override;
  uint32_t write_chunk(uint64_t addr, uint64_t remaining) const override;
  uint32_t read_chunk(uint64_t addr, uint64_t remaining) const override;
  void completion_sizes(uint64_t addr, uint32_t len, std::vector<uint32_t>& out) const override;
};

class HtLink : public link::SplitLink {
 public:
  HtLink(sc_core::sc_module_name name, int link_id, Attach a, Attach b,
         const HtConfig& defaults = HtConfig());
  const HtConfig& config() const { return cfg_; }

 private:
  HtConfig cfg_;
};

}  // namespace hs::ht
