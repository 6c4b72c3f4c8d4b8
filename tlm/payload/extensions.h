// Generic-payload extensions carrying transaction metadata through the interconnect.
#pragma once
#include <cstdint>
#include <tlm>

#include "tlm/link/packet.h"

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

// Attached by a split-transaction link's transaction port (PCIe, HyperTransport) to the
// transactions it delivers on the far side, so targets and monitors there can tell a write or
// read that came across a link (and which) from a local one.
struct LinkPacketExt : tlm::tlm_extension<LinkPacketExt> {
  const char* protocol = "";  // "PCIe", "HyperTransport"
  link::PacketKind kind = link::PacketKind::Write;
  int link_id = -1;
  bool coherent = false;  // a link between the host's own processors, not from a device
  tlm::tlm_extension_base* clone() const override { return new LinkPacketExt(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const LinkPacketExt&>(e);
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

// The link a device's transaction came across (PCIe, a HyperTransport I/O link), or null for
// the host's and the accelerator's own accesses (the coherent link between sockets included).
inline const LinkPacketExt* from_device_link(const tlm::tlm_generic_payload& gp) {
  const LinkPacketExt* e = gp.get_extension<LinkPacketExt>();
  return e && !e->coherent ? e : nullptr;
}

// Whether a link from a device delivered this transaction: a fabric forwarding it into another
// link is forwarding between links, which no modelled NIC does.
inline bool delivered_by_link(const tlm::tlm_generic_payload& gp) {
  return from_device_link(gp) || gp.get_extension<EthernetFrameExt>();
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
