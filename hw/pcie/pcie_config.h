// PCIe link parameters and the arithmetic every user of the link (the model, the tests, the
// analytic checks in benchmarks) shares: line rate after encoding, per-TLP wire overhead,
// how transfers split into TLPs and completions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hs::pcie {

enum class CplSplit { Rcb, Mps };  // completer returns RCB-sized or MPS-sized completions

struct PcieConfig {
  int gen = 1;
  int lanes = 8;
  uint32_t mps = 256;   // max payload size, bytes
  uint32_t mrrs = 512;  // max read request size, bytes
  uint32_t rcb = 64;    // read completion boundary, bytes
  CplSplit cpl_split = CplSplit::Rcb;
  bool ecrc = false;
  double latency_ns = 200;   // one-way: PHY, link layer and flight
  double fc_update_ns = 20;  // receiver's delay before it returns credits (UpdateFC)
  uint32_t tx_queue = 4;     // TLPs a transmitter buffers before it stalls its initiator
  uint32_t tags = 32;        // outstanding read requests per requester
  // Receiver credits (0 = infinite); header credits count TLPs, data credits 16-byte units.
  uint32_t ph = 64, pd = 1024, nph = 32, cplh = 0, cpld = 0;
  // Data link layer. A receiver acknowledges TLPs with an ACK DLLP once `ack_coalesce` are
  // unacknowledged or `ack_timer_ns` after the first of them arrived; a transmitter keeps each
  // TLP in its replay buffer until it is acknowledged, and stops when the buffer is full.
  uint32_t ack_coalesce = 4;
  double ack_timer_ns = 200;
  uint32_t replay_buffer = 4096;  // bytes of TLPs on the wire (overhead included)
  double replay_timeout_ns = 0;   // replay when no ACK or NAK came back in this time (0: derived)
  double retrain_ns = 5000;       // link retraining after the fourth replay of one TLP
  // Every DLLP (ACK, NAK, UpdateFC) is 6 bytes plus 2 of framing on the wire, at any generation.
  static constexpr uint32_t kDllpWireBytes = 8;

  // Declares every parameter under `prefix` (e.g. node0.pcie0) and returns the values.
  static PcieConfig declare(const std::string& prefix);

  // Line rate after 8b/10b or 128b/130b encoding, bytes per second, all lanes.
  double bytes_per_second() const;
  // Bytes a TLP adds on the wire: framing 2, sequence 2, header 12/16, LCRC 4, ECRC 4.
  uint32_t tlp_overhead(bool header_4dw) const;
  static bool needs_4dw(uint64_t addr) { return addr >= (uint64_t{1} << 32); }
  // Completion payload sizes for a read of `len` bytes at `addr`, split at RCB boundaries.
  std::vector<uint32_t> completion_sizes(uint64_t addr, uint32_t len) const;
  static uint32_t data_credits(uint32_t bytes) { return (bytes + 15) / 16; }
};

// Largest piece starting at `addr` that fits `max_bytes` and does not cross a 4 KiB boundary
// (requests may not cross one).
uint32_t tlp_chunk(uint64_t addr, uint64_t remaining, uint32_t max_bytes);

}  // namespace hs::pcie
