#include "hw/ht/ht_link.h"

#include <algorithm>
#include <memory>

#include "tlm/params/param_registry.h"

namespace hs::ht {

using link::Packet;
using link::PacketKind;

namespace {

constexpr uint32_t kRequestBytes = 8;      // sized read or write request
constexpr uint32_t kAddressExtension = 4;  // 64-bit addresses: bits 40..63
constexpr uint32_t kResponseBytes = 4;     // read response, error response
constexpr uint32_t kByteMaskBytes = 4;     // a write that is not whole doublewords
constexpr uint64_t kBoundary = HtConfig::kMaxPayload;

bool extended(uint64_t addr) {
  return addr >= (uint64_t{1} << 40);
}

uint32_t request_bytes(const Packet& p) {
  return kRequestBytes + (extended(p.addr) ? kAddressExtension : 0);
}

// A data packet's bytes: whole doublewords covering the payload, and a byte mask if the payload
// is not whole doublewords.
uint32_t data_bytes(uint64_t addr, uint32_t len) {
  const uint64_t first = addr & ~uint64_t{3};
  const uint64_t last = (addr + len + 3) & ~uint64_t{3};
  const bool partial = (addr & 3) != 0 || (len & 3) != 0;
  return static_cast<uint32_t>(last - first) + (partial ? kByteMaskBytes : 0);
}

uint32_t chunk(uint64_t addr, uint64_t remaining) {
  const uint64_t to_boundary = kBoundary - (addr % kBoundary);
  return static_cast<uint32_t>(std::min(remaining, to_boundary));
}

link::LinkTiming timing_of(const HtConfig& c) {
  link::LinkTiming t;
  t.bytes_per_second = c.bytes_per_second();
  t.latency_ns = c.latency_ns;
  t.flow_update_ns = c.nop_delay_ns;
  t.link_packet_bytes = HtConfig::kNopBytes;
  t.tx_queue = c.tx_queue;
  t.tags = c.tags;
  t.header_credits = {c.posted_cmd, c.nonposted_cmd, c.response_cmd};
  t.data_credits = {c.posted_data, 0, c.response_data};
  t.acknowledged = false;
  t.coherent = c.coherent;
  return t;
}

}  // namespace

HtConfig HtConfig::declare(const std::string& prefix, const HtConfig& d) {
  ParamScope p(prefix);
  HtConfig c = d;
  c.width = static_cast<int>(p.integer("width", d.width, "bits", "link width, each direction",
                                       Range::one_of({2, 4, 8, 16, 32})));
  c.clock_hz = p.real("clock", d.clock_hz, "Hz",
                      "link clock (data on both edges: HyperTransport 1.x to 800 MHz, 2.0 to "
                      "1.4 GHz)",
                      Range::between(200e6, 2.6e9));
  c.latency_ns = p.real("latency", d.latency_ns, "ns",
                        "one-way latency of a packet after its last byte leaves the transmitter",
                        Range::between(0, 1e6));
  c.nop_delay_ns = p.real("nop_delay", d.nop_delay_ns, "ns",
                          "receiver delay before a NOP returns the buffers a packet freed",
                          Range::between(0, 1e6));
  c.tx_queue = static_cast<uint32_t>(p.integer("tx_queue", d.tx_queue, "packets",
                                               "transmit buffer depth per direction",
                                               Range::between(1, 256)));
  c.tags = static_cast<uint32_t>(p.integer(
      "tags", d.tags, "", "outstanding reads per requester (SrcTags)", Range::between(1, 32)));
  const char* desc = " buffers the receiver advertises";
  auto buffers = [&](const char* leaf, uint32_t v, const char* what) {
    return static_cast<uint32_t>(
        p.integer(leaf, v, "buffers", std::string(what) + desc, Range::between(1, 64)));
  };
  c.posted_cmd = buffers("buffers.posted_command", d.posted_cmd, "posted command");
  c.posted_data = buffers("buffers.posted_data", d.posted_data, "posted 64-byte data");
  c.nonposted_cmd = buffers("buffers.nonposted_command", d.nonposted_cmd, "non-posted command");
  c.response_cmd = buffers("buffers.response_command", d.response_cmd, "response command");
  c.response_data = buffers("buffers.response_data", d.response_data, "response 64-byte data");
  return c;
}

double HtConfig::bytes_per_second() const {
  // Per lane, 4 bit times of CRC follow every 512 of data (HyperTransport 1.x and 2.0).
  return clock_hz * 2.0 * width / 8.0 * (512.0 / 516.0);
}

// HyperTransport's names for its packets.
const link::LinkVocabulary kHtWords = {
    "HyperTransport",
    {"posted write", "read", "read response", "error response"},
    {{{"posted_writes", "packets", "posted sized-write requests sent"},
      {"reads", "packets", "sized-read requests sent"},
      {"read_responses", "packets", "read responses with data sent"},
      {"error_responses", "packets", "responses without data (the read failed) sent"}}},
    {"nops", "packets", "NOP packets sent (buffers freed for the other direction)"},
    {"nop_bytes", "B", "bytes of NOP packets this wire carried"},
    "NOP",
    "buffers",
};

HtFormat::HtFormat() : LinkFormat(kHtWords) {}

uint32_t HtFormat::wire_bytes(const Packet& p) const {
  switch (p.kind) {
    case PacketKind::Write:
      return request_bytes(p) + data_bytes(p.addr, p.len);
    case PacketKind::Read:
      return request_bytes(p);
    case PacketKind::ReadData:
      return kResponseBytes + data_bytes(p.addr, p.len);
    case PacketKind::ReadError:
      return kResponseBytes;
  }
  return 0;
}

uint32_t HtFormat::max_wire_bytes() const {
  return kRequestBytes + kAddressExtension + HtConfig::kMaxPayload + kByteMaskBytes;
}

uint32_t HtFormat::header_bytes(const Packet& p) const {
  return p.is_completion() ? kResponseBytes : request_bytes(p);
}

uint32_t HtFormat::data_credits(const Packet& p) const {
  return p.has_data() ? 1 : 0;  // one 64-byte data buffer
}

uint32_t HtFormat::write_chunk(uint64_t addr, uint64_t remaining) const {
  return chunk(addr, remaining);
}

uint32_t HtFormat::read_chunk(uint64_t addr, uint64_t remaining) const {
  return chunk(addr, remaining);
}

void HtFormat::completion_sizes(uint64_t, uint32_t len, std::vector<uint32_t>& out) const {
  out.assign(1, len);  // one response per read
}

HtLink::HtLink(sc_core::sc_module_name name, int link_id, Attach a, Attach b,
               const HtConfig& defaults)
    : SplitLink(name, link_id), cfg_(HtConfig::declare(this->name(), defaults)) {
  build(std::make_unique<HtFormat>(), timing_of(cfg_), a, b);
}

}  // namespace hs::ht
