#include "hw/pcie/pcie_link.h"

#include <algorithm>
#include <memory>

namespace hs::pcie {

using link::Packet;
using link::PacketKind;

namespace {

link::LinkTiming timing_of(const PcieConfig& c) {
  link::LinkTiming t;
  t.bytes_per_second = c.bytes_per_second();
  t.latency_ns = c.latency_ns;
  t.flow_update_ns = c.fc_update_ns;
  t.link_packet_bytes = PcieConfig::kDllpWireBytes;
  t.tx_queue = c.tx_queue;
  t.tags = c.tags;
  t.header_credits = {c.ph, c.nph, c.cplh};
  t.data_credits = {c.pd, 0, c.cpld};
  t.acknowledged = true;
  t.ack_coalesce = c.ack_coalesce;
  t.ack_timer_ns = c.ack_timer_ns;
  t.replay_buffer = c.replay_buffer;
  t.replay_timeout_ns = c.replay_timeout_ns;
  t.retrain_ns = c.retrain_ns;
  return t;
}

bool header_4dw(const Packet& p) {
  return (p.kind == PacketKind::Write || p.kind == PacketKind::Read) &&
         PcieConfig::needs_4dw(p.addr);
}

}  // namespace

PcieLink::PcieLink(sc_core::sc_module_name name, int link_id, Attach a, Attach b)
    : SplitLink(name, link_id), cfg_(PcieConfig::declare(this->name())) {
  build(std::make_unique<PcieFormat>(cfg_), timing_of(cfg_), a, b);
}

// PCIe's names for its packets.
const link::LinkVocabulary kPcieWords = {
    "PCIe",
    {"MWr", "MRd", "CplD", "Cpl"},
    {{{"tlps_mwr", "TLPs", "memory write TLPs sent"},
      {"tlps_mrd", "TLPs", "memory read request TLPs sent"},
      {"tlps_cpld", "TLPs", "completion-with-data TLPs sent"},
      {"tlps_cpl", "TLPs", "completions without data (errors) sent"}}},
    {"dllps_update_fc", "DLLPs", "UpdateFC DLLPs sent (credits for the other direction)"},
    {"dllp_bytes", "B", "bytes of DLLPs (ACK, NAK, UpdateFC) this wire carried, framing included"},
    "UpdateFC",
    "16B",
};

PcieFormat::PcieFormat(const PcieConfig& cfg) : LinkFormat(kPcieWords), cfg_(cfg) {}

uint32_t PcieFormat::wire_bytes(const Packet& p) const {
  return (p.has_data() ? p.len : 0) + cfg_.tlp_overhead(header_4dw(p));
}

uint32_t PcieFormat::max_wire_bytes() const {
  return std::max(cfg_.mps, cfg_.rcb) + cfg_.tlp_overhead(true);
}

uint32_t PcieFormat::header_bytes(const Packet& p) const {
  return 2 /*framing*/ + 2 /*sequence*/ + (header_4dw(p) ? 16 : 12);
}

uint32_t PcieFormat::data_credits(const Packet& p) const {
  return p.has_data() ? PcieConfig::data_credits(p.len) : 0;
}

uint32_t PcieFormat::write_chunk(uint64_t addr, uint64_t remaining) const {
  return tlp_chunk(addr, remaining, cfg_.mps);
}

uint32_t PcieFormat::read_chunk(uint64_t addr, uint64_t remaining) const {
  return tlp_chunk(addr, remaining, cfg_.mrrs);
}

void PcieFormat::completion_sizes(uint64_t addr, uint32_t len, std::vector<uint32_t>& out) const {
  out = cfg_.completion_sizes(addr, len);
}

}  // namespace hs::pcie
