// One PCIe link between a root port (side A, towards the host) and an endpoint (side B, an
// accelerator): a split-transaction link (tlm/link/split_link.h states the rules of its wires,
// credits and data link layer) carrying TLPs in PCIe's format.
//
// - TLPs: MWr (posted write), MRd (read request), CplD (completion with data), Cpl (without:
//   the request failed). Writes split at max_payload and 4 KiB boundaries; reads at
//   max_read_request and 4 KiB boundaries, one tag each; completions at the read completion
//   boundary (or max_payload). Wire overhead per TLP: framing 2, sequence 2, header 12 or 16
//   (4DW above 4 GiB), LCRC 4, optional ECRC 4 bytes; data credits in 16-byte units.
// - Data link layer: ACK DLLPs coalesced or on a timer, a replay buffer, NAK and replay on an
//   LCRC error, retraining after the fourth replay of one TLP; UpdateFC DLLPs return credits.
//   Every DLLP is 6 bytes plus 2 of framing on the wire.
// - At a side built with Attach::Fabric the link's transaction port turns bus accesses into
//   TLPs and back (port(side).in / .out); at a side built with Attach::Packets a bridge takes
//   and sends TLPs itself.
#pragma once
#include <systemc>

#include "hw/pcie/pcie_config.h"
#include "tlm/link/split_link.h"
#include "tlm/link/transaction_port.h"

namespace hs::pcie {

class PcieLink : public link::SplitLink {
 public:
  PcieLink(sc_core::sc_module_name name, int link_id, Attach a = Attach::Fabric,
           Attach b = Attach::Fabric);
  const PcieConfig& config() const { return cfg_; }

 private:
  PcieConfig cfg_;
};

// The PCIe wire format (also what bridges ask of a PCIe side).
class PcieFormat : public link::LinkFormat {
 public:
  explicit PcieFormat(const PcieConfig& cfg);
  uint32_t wire_bytes(const link::Packet& p) const override;
  uint32_t max_wire_bytes() const override;
  uint32_t header_bytes(const link::Packet& p) const override;
  uint32_t data_credits(const link::Packet& p) const override;
  uint32_t write_chunk(uint64_t addr, uint64_t remaining) const override;
  uint32_t read_chunk(uint64_t addr, uint64_t remaining) const override;
  void completion_sizes(uint64_t addr, uint32_t len, std::vector<uint32_t>& out) const override;

 private:
  PcieConfig cfg_;
};

}  // namespace hs::pcie
