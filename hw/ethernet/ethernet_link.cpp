#include "hw/ethernet/ethernet_link.h"

#include <fmt/format.h>

#include <optional>

#include "tlm/check/checker.h"
#include "tlm/fault/fault_injector.h"
#include "tlm/kernel/now.h"
#include "tlm/link/delivery_queue.h"
#include "tlm/params/param_registry.h"
#include "tlm/payload/extensions.h"
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
  c.rx_buffer = static_cast<uint32_t>(p.integer(
      "rx_buffer", c.rx_buffer, "frames",
      "frames the receiving NIC holds before it pauses the sender", Range::between(1, 65536)));
  return c;
}

struct EthernetLink::Direction {
  Direction(EthernetLink& link, const std::string& dir_name,
            tlm_utils::simple_initiator_socket<EthernetLink>& out_socket, const EthernetConfig& c)
      : name(std::string(link.name()) + "." + dir_name),
        out(out_socket),
        tx(c.tx_queue),
        rx_credits(c.rx_buffer, 0),
        frame_loss(ParamScope(name), "frame_loss",
                   "lose frames (the receiver drops a frame with a bad FCS)", "frame", 0.5),
        in_flight([&link, this](Frame& f) { link.arrive(*this, f); }),
        stats(name),
        frames(stats.counter("frames", "frames", "frames sent")),
        payload(stats.bytes("payload_bytes", "write data bytes on the wire by the run's end")),
        wire(stats.bytes("wire_bytes", "bytes on the wire by the run's end, including framing")),
        frames_lost(stats.counter("frames_lost", "frames",
                                  "frames dropped by the receiver (injected faults)")),
        paused_frames(stats.counter("paused_frames", "frames",
                                    "frames held back until the receiver had room")),
        busy(stats.busy("utilisation", "fraction of time the wire is busy",
                        {&wire})),  // the wire is busy while it moves a frame's bytes
        rx_held(stats.occupancy("rx_buffer_held", "frames",
                                "receive-buffer credits consumed and not yet returned")),
        track(TransactionTrace::instance().track(name)) {}
  std::string name;
  tlm_utils::simple_initiator_socket<EthernetLink>& out;
  SerialResource line;
  TransmitBuffer tx;
  CreditPool rx_credits;  // the receiving NIC's buffer, one credit per frame
  FaultInjector frame_loss;
  DeliveryQueue<Frame> in_flight;
  TaggedPayload<EthernetFrameExt> delivery;  // reused for every frame delivered
  StatGroup stats;
  Counter& frames;
  ByteFlow &payload, &wire;
  Counter& frames_lost;
  Counter& paused_frames;
  BusyTime& busy;
  Occupancy& rx_held;
  int track;
};

EthernetLink::EthernetLink(sc_core::sc_module_name name, int link_id)
    : sc_module(name),
      a_in("a_in"),
      b_in("b_in"),
      a_out("a_out"),
      b_out("b_out"),
      link_id_(link_id),
      cfg_(EthernetConfig::declare(this->name())) {
  latency_ = picoseconds(cfg_.latency_ns * 1e3);
  dir_[0] = std::make_unique<Direction>(*this, "down", b_out, cfg_);
  dir_[1] = std::make_unique<Direction>(*this, "up", a_out, cfg_);
  for (auto& d : dir_) {
    d->delivery.ext.link_id = link_id;
    d->stats.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", cfg_.bytes_per_second(), {&d->wire});
  }
  a_in.register_b_transport(this, &EthernetLink::from_a);
  b_in.register_b_transport(this, &EthernetLink::from_b);
}

EthernetLink::~EthernetLink() = default;

void EthernetLink::receiver_never_waits(Side receiver) {
  dir_[receiver == B ? 0 : 1]->in_flight.take_in_place();  // the direction towards it
}

uint64_t EthernetLink::frames(int dir) const {
  return dir_[dir]->frames.value;
}

uint64_t EthernetLink::frames_lost(int dir) const {
  return dir_[dir]->frames_lost.value;
}

void EthernetLink::transport(int from, tlm::tlm_generic_payload& gp, sc_time& delay) {
  HS_CHECK(gp.is_write(), "Ethernet: the fabric carries remote writes only", name(),
           fmt::format("read of {} B at {:#x}: the Ethernet fabric carries remote writes only",
                       gp.get_data_length(), gp.get_address()));
  if (!gp.is_write()) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (delivered_by_link(gp)) {
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
    // A full receive buffer pauses the sender until the receiver has taken a frame.
    const sc_time wire_ready = std::max(local, d.line.free_at());
    std::optional<sc_time> room = d.rx_credits.available_at(1, wire_ready);
    if (!room || *room > wire_ready) ++d.paused_frames;
    while (!room) {
      sc_core::wait(d.rx_credits.released());
      local = std::max(local, hs::now());
      room = d.rx_credits.available_at(1, std::max(local, d.line.free_at()));
    }
    const sc_time start = d.line.reserve(*room, ser);
    d.rx_credits.consume(1, start);
    d.rx_held.set(d.rx_credits.headers_in_use(), hs::now());
    d.tx.occupy_until(start + ser, hs::now());
    ++d.frames;
    d.payload.add(start, start + ser, n);
    d.wire.add(start, start + ser, wire);  // also the wire's busy time
    // Drawn for every frame sent: a lost one is marked on the wire's track.
    const bool lost = d.frame_loss.hit();
    if (lost) ++d.frames_lost;
    if (d.track >= 0) {
      const nlohmann::json args = {{"address", addr}, {"bytes", n}, {"wire_bytes", wire}};
      TransactionTrace::instance().span(d.track, lost ? "frame lost (bad FCS)" : "frame", start,
                                        start + ser, &args);
    }
    d.in_flight.push(start + ser + latency_, Frame{addr, std::vector<uint8_t>(src, src + n), lost});
    addr += n;
    src += n;
    remaining -= n;
  }
  delay = local - hs::now();
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void EthernetLink::arrive(Direction& d, Frame& f) {
  if (f.lost) {
    // Dropped at the receiver's MAC (bad FCS): its buffer slot frees at once and the resume
    // crosses the link back, as for a frame taken.
    d.rx_credits.release(hs::now() + latency_);
    d.rx_held.set(d.rx_credits.headers_in_use(), hs::now());
    return;
  }
  tlm::tlm_generic_payload& gp = d.delivery.gp;
  prepare(gp, tlm::TLM_WRITE_COMMAND, f.addr, f.data.data(),
          static_cast<unsigned int>(f.data.size()));
  sc_time delay = sc_core::SC_ZERO_TIME;
  d.out->b_transport(gp, delay);
  // Taken when the fabric's delay has passed; the resume crosses the link back.
  d.rx_credits.release(hs::now() + delay + latency_);
  d.rx_held.set(d.rx_credits.headers_in_use(), hs::now());
  HS_CHECK(gp.is_response_ok(), "Ethernet: frames accepted by their target", d.name,
           fmt::format("frame writing {} B at {:#x} was not accepted by the receiver ({})",
                       f.data.size(), f.addr, gp.get_response_string()));
}

}  // namespace hs::ethernet
