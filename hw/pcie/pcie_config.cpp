#include "hw/pcie/pcie_config.h"

#include <fmt/format.h>

#include <algorithm>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::pcie {

PcieConfig PcieConfig::declare(const std::string& prefix) {
  ParamScope p(prefix);
  PcieConfig c;
  c.gen = static_cast<int>(p.integer("gen", c.gen, "",
                                     "PCIe generation (1: 2.5 GT/s 8b/10b, "
                                     "2: 5 GT/s 8b/10b, 3: 8 GT/s 128b/130b)",
                                     Range::one_of({1, 2, 3})));
  c.lanes = static_cast<int>(
      p.integer("lanes", c.lanes, "", "link width", Range::one_of({1, 2, 4, 8, 12, 16, 32})));
  c.mps = static_cast<uint32_t>(p.integer("max_payload", c.mps, "B", "max payload size (MPS)",
                                          Range::one_of({128, 256, 512, 1024, 2048, 4096})));
  c.mrrs = static_cast<uint32_t>(p.integer("max_read_request", c.mrrs, "B",
                                           "max read request size (MRRS)",
                                           Range::one_of({128, 256, 512, 1024, 2048, 4096})));
  c.rcb = static_cast<uint32_t>(
      p.integer("rcb", c.rcb, "B", "read completion boundary", Range::one_of({64, 128})));
  c.cpl_split = p.choice("completion_split", "rcb",
                         "completer splits read data into RCB-sized or MPS-sized completions",
                         {"rcb", "mps"}) == "rcb"
                    ? CplSplit::Rcb
                    : CplSplit::Mps;
  c.ecrc = p.flag("ecrc", c.ecrc, "append a 4-byte end-to-end CRC to every TLP");
  c.latency_ns = p.real("latency", c.latency_ns, "ns",
                        "one-way latency of a TLP after its last byte leaves the transmitter",
                        Range::between(0, 1e6));
  c.fc_update_ns =
      p.real("fc_update_delay", c.fc_update_ns, "ns",
             "receiver delay before returning flow-control credits", Range::between(0, 1e6));
  c.tx_queue = static_cast<uint32_t>(p.integer("tx_queue", c.tx_queue, "TLPs",
                                               "transmit buffer depth per direction",
                                               Range::between(1, 256)));
  c.tags = static_cast<uint32_t>(p.integer(
      "tags", c.tags, "", "outstanding read requests per requester", Range::between(1, 256)));
  const char* cdesc = " credits advertised by the receiver (0 = infinite)";
  c.ph = static_cast<uint32_t>(p.integer("credits.posted_header", c.ph, "TLPs",
                                         std::string("posted header") + cdesc,
                                         Range::between(0, 4096)));
  c.pd = static_cast<uint32_t>(p.integer("credits.posted_data", c.pd, "16B",
                                         std::string("posted data") + cdesc,
                                         Range::between(0, 65536)));
  c.nph = static_cast<uint32_t>(p.integer("credits.nonposted_header", c.nph, "TLPs",
                                          std::string("non-posted header") + cdesc,
                                          Range::between(0, 4096)));
  c.cplh = static_cast<uint32_t>(p.integer("credits.completion_header", c.cplh, "TLPs",
                                           std::string("completion header") + cdesc,
                                           Range::between(0, 4096)));
  c.cpld = static_cast<uint32_t>(p.integer("credits.completion_data", c.cpld, "16B",
                                           std::string("completion data") + cdesc,
                                           Range::between(0, 65536)));
  c.ack_coalesce = static_cast<uint32_t>(
      p.integer("dll.ack_coalesce", c.ack_coalesce, "TLPs",
                "TLPs a receiver takes before it sends an ACK DLLP", Range::between(1, 64)));
  c.ack_timer_ns = p.real("dll.ack_timer", c.ack_timer_ns, "ns",
                          "longest a received TLP waits for its ACK DLLP", Range::between(1, 1e6));
  c.replay_buffer = static_cast<uint32_t>(p.integer(
      "dll.replay_buffer", 0, "B",
      "replay buffer: bytes of transmitted TLPs kept until acknowledged (0: twice what the line "
      "carries in an ACK's round trip, 2 x latency + dll.ack_timer, at least 4 KiB and two of the "
      "largest TLPs)",
      Range::between(0, 1 << 24)));
  c.replay_timeout_ns =
      p.real("dll.replay_timeout", 0, "ns",
             "replay timer: the transmitter replays when no ACK or NAK arrives in this time "
             "(0: three ACK round trips, 3 x (2 x latency + dll.ack_timer))",
             Range::between(0, 1e9));
  c.retrain_ns = p.real("dll.retrain_time", c.retrain_ns, "ns",
                        "link retraining after REPLAY_NUM rolls over (the fourth replay of a TLP)",
                        Range::between(0, 1e9));
  // A buffer that cannot hold the largest TLP, or a timer shorter than an ACK's round trip,
  // would stall or replay every TLP: refused rather than modelled.
  const double ack_round_trip = 2 * c.latency_ns + c.ack_timer_ns;
  const uint32_t largest = std::max(c.mps, c.rcb) + c.tlp_overhead(true);
  if (c.replay_buffer == 0) {
    c.replay_buffer = static_cast<uint32_t>(
        std::min(double(1 << 24), std::max({4096.0, 2.0 * largest,
                                            2 * ack_round_trip * 1e-9 * c.bytes_per_second()})));
  }
  if (c.replay_buffer < largest) {
    throw InputError(ParamRegistry::instance().refusal(
        p.name("dll.replay_buffer"),
        fmt::format("= {} B is smaller than the largest TLP on the wire ({} B: max_payload {} B "
                    "plus overhead)",
                    c.replay_buffer, largest, c.mps)));
  }
  if (c.replay_timeout_ns == 0) {
    c.replay_timeout_ns = 3 * ack_round_trip;
  } else if (c.replay_timeout_ns <= ack_round_trip) {
    throw InputError(ParamRegistry::instance().refusal(
        p.name("dll.replay_timeout"),
        fmt::format("= {} ns must exceed an ACK's round trip (2 x latency + dll.ack_timer = {} "
                    "ns), or every TLP would be replayed",
                    c.replay_timeout_ns, ack_round_trip)));
  }
  return c;
}

double PcieConfig::bytes_per_second() const {
  double gt = gen == 1 ? 2.5e9 : gen == 2 ? 5e9 : 8e9;
  double encoding = gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
  return gt * encoding * lanes / 8.0;
}

uint32_t PcieConfig::tlp_overhead(bool header_4dw) const {
  return 2 /*framing*/ + 2 /*sequence*/ + (header_4dw ? 16 : 12) + 4 /*LCRC*/ + (ecrc ? 4 : 0);
}

std::vector<uint32_t> PcieConfig::completion_sizes(uint64_t addr, uint32_t len) const {
  std::vector<uint32_t> sizes;
  const uint64_t unit = cpl_split == CplSplit::Rcb ? rcb : std::max(mps, rcb);
  uint64_t cur = addr;
  const uint64_t end = addr + len;
  while (cur < end) {
    // Each completion ends on an RCB boundary (or at the end of the request).
    uint64_t next = std::min(end, (cur / rcb) * rcb + unit);
    sizes.push_back(static_cast<uint32_t>(next - cur));
    cur = next;
  }
  return sizes;
}

uint32_t tlp_chunk(uint64_t addr, uint64_t remaining, uint32_t max_bytes) {
  uint64_t to_boundary = 4096 - (addr & 4095);
  return static_cast<uint32_t>(std::min<uint64_t>({remaining, max_bytes, to_boundary}));
}

}  // namespace hs::pcie
