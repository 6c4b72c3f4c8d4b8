#include "hw/ethernet/ethernet_link.h"

#include <fmt/format.h>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::ethernet {

using sc_core::sc_time;

EthernetConfig EthernetConfig::declare(const std::string& prefix) {
  ParamScope p(prefix);
  EthernetConfig c;
  c.gbps = p.real("rate", c.gbps, "Gb/s", "line rate", Range::between(0.01, 400));
  c.mtu = static_cast<uint32_t>(
      p.integer("mtu", c.mtu, "B", "maximum frame payload", Range::between(128, 9000)));
  c.write_header = static_cast<uint32_t>(
      p.integer("write_header", c.write_header, "B",
                "remote-write header carried in each frame's payload", Range::between(0, 64)));
  c.latency_ns = p.real("latency", c.latency_ns, "ns", "one-way latency after the last bit leaves",
                        Range::between(0, 1e7));
  c.tx_queue = static_cast<uint32_t>(p.integer("tx_queue", c.tx_queue, "frames",
                                               "transmit buffer depth", Range::between(1, 1024)));
  return c;
}

struct EthernetLink::Direction {
  Direction(EthernetLink& link, const std::string& dir_name,
            tlm_utils::simple_initiator_socket<EthernetLink>& out_socket, uint32_t depth)
      : name(std::string(link.name()) + "." + dir_name),
        out(out_socket),
        tx(depth),
        in_flight((dir_name + "_arrivals").c_str(),
                  [&link, this](Frame& f) { link.arrive(*this, f); }),
        stats(name),
        frames(stats.counter("frames", "frames", "frames sent")),
        payload(stats.bytes("payload_bytes", "write data bytes on the wire by the run's end")),
        wire(stats.bytes("wire_bytes", "bytes on the wire by the run's end, including framing")),
        busy(stats.busy("utilisation", "fraction of time the wire is busy")),
        track(TransactionTrace::instance().track(name)) {}
  std::string name;
  tlm_utils::simple_initiator_socket<EthernetLink>& out;
  SerialResource line;
  TransmitBuffer tx;
  TimedQueue<Frame> in_flight;
  StatGroup stats;
  Counter& frames;
  ByteFlow &payload, &wire;
  BusyTime& busy;
  int track;
};

EthernetLink::EthernetLink(sc_core::sc_module_name name)
    : sc_module(name),
      a_in("a_in"),
      b_in("b_in"),
      a_out("a_out"),
      b_out("b_out"),
      cfg_(EthernetConfig::declare(this->name())) {
  latency_ = picoseconds(cfg_.latency_ns * 1e3);
  dir_[0] = std::make_unique<Direction>(*this, "down", b_out, cfg_.tx_queue);
  dir_[1] = std::make_unique<Direction>(*this, "up", a_out, cfg_.tx_queue);
  for (auto& d : dir_) {
    d->stats.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", cfg_.bytes_per_second(), {&d->wire});
  }
  a_in.register_b_transport(this, &EthernetLink::from_a);
  b_in.register_b_transport(this, &EthernetLink::from_b);
}

EthernetLink::~EthernetLink() = default;

uint64_t EthernetLink::frames(int dir) const {
  return dir_[dir]->frames.value;
}

void EthernetLink::transport(int from, tlm::tlm_generic_payload& gp, sc_time& delay) {
  HS_CHECK(gp.is_write(), "Ethernet: the fabric carries remote writes only", name(),
           fmt::format("read of {} B at {:#x}: the Ethernet fabric carries remote writes only",
                       gp.get_data_length(), gp.get_address()));
  if (!gp.is_write()) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (sc_core::sc_get_current_process_handle().proc_kind() != sc_core::SC_THREAD_PROC_) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // no forwarding between links
    return;
  }
  Direction& d = *dir_[from];
  sc_time local = hs::now() + delay;
  uint64_t addr = gp.get_address();
  const uint8_t* src = gp.get_data_ptr();
  uint64_t remaining = gp.get_data_length();
  while (remaining > 0) {
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(remaining, cfg_.data_per_frame()));
    d.tx.wait_for_slot(local);
    const uint32_t wire = cfg_.wire_bytes(n);
    const sc_time ser = transfer_time(wire, cfg_.bytes_per_second());
    const sc_time start = d.line.reserve(local, ser);
    d.tx.occupy_until(start + ser, hs::now());
    d.busy.add(start, start + ser);
    ++d.frames;
    d.payload.add(start, start + ser, n);
    d.wire.add(start, start + ser, wire);
    TransactionTrace::instance().span(d.track, "frame", start, start + ser);
    d.in_flight.push(start + ser + latency_, Frame{addr, std::vector<uint8_t>(src, src + n)});
    addr += n;
    src += n;
    remaining -= n;
  }
  delay = local - hs::now();
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void EthernetLink::arrive(Direction& d, Frame& f) {
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(f.addr);
  gp.set_data_ptr(f.data.data());
  gp.set_data_length(static_cast<unsigned int>(f.data.size()));
  gp.set_streaming_width(static_cast<unsigned int>(f.data.size()));
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = sc_core::SC_ZERO_TIME;
  d.out->b_transport(gp, delay);
  HS_CHECK(gp.is_response_ok(), "Ethernet: frames accepted by their target", d.name,
           fmt::format("frame writing {} B at {:#x} was not accepted by the receiver ({})",
                       f.data.size(), f.addr, gp.get_response_string()));
}

}  // namespace hs::ethernet
