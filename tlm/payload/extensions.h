// Generic-payload extensions carrying transaction metadata through the interconnect.
#pragma once
#include <cstdint>
#include <tlm>

namespace hs {

// Who started a transaction (a core, a DMA engine); set by initiators, read by monitors,
// checkers and traces. Ignorable: targets that do not care never look.
struct InitiatorExt : tlm::tlm_extension<InitiatorExt> {
  int initiator_id = -1;  // index in the InitiatorIds table
  bool mmio = false;      // device-register access (uncached, ordered)
  tlm::tlm_extension_base* clone() const override { return new InitiatorExt(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const InitiatorExt&>(e);
  }
};

// PCIe transaction-layer packet kinds the link model distinguishes.
enum class TlpKind : uint8_t { MWr, MRd, CplD, Cpl };
const char* to_string(TlpKind k);

// Attached by a PCIe link to the transactions it delivers on the far side, so targets and
// monitors there can tell a PCIe-borne write (and its kind) from a local one.
struct PcieTlpExt : tlm::tlm_extension<PcieTlpExt> {
  TlpKind kind = TlpKind::MWr;
  int link_id = -1;
  tlm::tlm_extension_base* clone() const override { return new PcieTlpExt(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const PcieTlpExt&>(e);
  }
};

// Attached by an Ethernet link to the remote writes it delivers on the far side.
struct EthernetFrameExt : tlm::tlm_extension<EthernetFrameExt> {
  int link_id = -1;
  tlm::tlm_extension_base* clone() const override { return new EthernetFrameExt(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const EthernetFrameExt&>(e);
  }
};

// Whether a link delivered this transaction: a fabric forwarding it into another link is
// forwarding between links, which no modelled root complex or NIC does.
inline bool delivered_by_link(tlm::tlm_generic_payload& gp) {
  return gp.get_extension<PcieTlpExt>() || gp.get_extension<EthernetFrameExt>();
}

// Fills a reusable generic payload for a plain access. Reusing one payload per thread (or
// per delivering method) avoids constructing one, and its extension array, per access.
inline void prepare(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t addr,
                    unsigned char* data, unsigned int len) {
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

// A generic payload reused for every access of one initiator (a core's thread, an engine's
// worker, a link's delivery), with its metadata extension attached for its whole life: no
// construction and no extension bookkeeping per access. The extension is detached before the
// payload is destroyed (the payload would otherwise free it).
template <class Ext>
class TaggedPayload {
 public:
  TaggedPayload() { gp.set_extension(&ext); }
  ~TaggedPayload() { gp.clear_extension(&ext); }
  TaggedPayload(const TaggedPayload&) = delete;
  TaggedPayload& operator=(const TaggedPayload&) = delete;

  tlm::tlm_generic_payload gp;
  Ext ext;
};

}  // namespace hs
