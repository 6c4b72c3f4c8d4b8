#include "tlm/link/split_link.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include <iterator>
#include <stdexcept>

#include "tlm/fault/fault_injector.h"
#include "tlm/kernel/now.h"
#include "tlm/link/delivery_queue.h"
#include "tlm/link/transaction_port.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"
#include "tlm/timing/transmit_buffer.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::link {

using sc_core::sc_time;

// A packet waiting for credits, and what its sender (if one waits for it) learns when it goes.
struct SplitLink::Waiting {
  struct Placement {
    sc_core::sc_event on_wire;
    sc_time end;
    bool placed = false;
  };
  Packet packet;
  sc_time ready;
  Placement* sender = nullptr;  // null for packets posted without a thread
};

struct SplitLink::Direction {
  Direction(SplitLink& link, const std::string& dir_name, const LinkTiming& t)
      : name(std::string(link.name()) + "." + dir_name),
        tx(t.tx_queue),
        posted(t.header_credits[0], t.data_credits[0]),
        nonposted(t.header_credits[1], t.data_credits[1]),
        completion(t.header_credits[2], t.data_credits[2]),
        replay(0, t.replay_buffer),
        in_flight([&link, this](Packet& p) { link.arrive(*this, p); }),
        stats(name) {
    const LinkFormat& f = *link.format_;
    if (t.acknowledged) {
      lcrc_error = FaultInjector(ParamScope(name), "lcrc_error",
                                 "corrupt TLPs (an LCRC error at the receiver)", "TLP", 0.5);
      nak_loss = FaultInjector(ParamScope(name), "nak_loss",
                               "lose the NAK answering a corrupted TLP (the replay timer then "
                               "recovers)",
                               "NAK");
    }
    for (int k = 0; k < kPacketKinds; ++k) {
      const LinkFormat::StatName s = f.kind_stat(static_cast<PacketKind>(k));
      sent[k] = &stats.counter(s.name, s.unit, s.description);
    }
    payload = &stats.bytes("payload_bytes", "payload bytes on the wire by the run's end");
    wire = &stats.bytes("wire_bytes", "bytes on the wire by the run's end, including overhead");
    credit_stall_ps = &stats.counter("credit_stall_ps", "ps",
                                     "time packets waited for receiver credits with the wire "
                                     "idle");
    credit_waits = &stats.counter("credit_waits", "packets",
                                  "packets that waited for the receiver to take earlier packets "
                                  "before their credits were known");
    if (t.acknowledged) {
      replay_stall_ps = &stats.counter("replay_buffer_stall_ps", "ps",
                                       "time TLPs waited for room in the replay buffer (ACKs not "
                                       "yet back) with the wire idle");
    }
    const LinkFormat::StatName lb = f.link_bytes_stat();
    link_bytes = &stats.counter(lb.name, lb.unit, lb.description);
    if (t.acknowledged) {
      acks =
          &stats.counter("dllps_ack", "DLLPs", "ACK DLLPs sent (for the other direction's TLPs)");
      naks =
          &stats.counter("dllps_nak", "DLLPs", "NAK DLLPs sent (for the other direction's TLPs)");
    }
    const LinkFormat::StatName fu = f.flow_update_stat();
    flow_updates = &stats.counter(fu.name, fu.unit, fu.description);
    if (t.acknowledged) {
      lcrc_errors = &stats.counter("lcrc_errors", "TLPs",
                                   "TLP transmissions corrupted on this wire (injected faults)");
      replays =
          &stats.counter("replays", "TLPs", "TLPs sent again after a NAK or a replay timeout");
      replay_timeouts = &stats.counter("replay_timeouts", "events",
                                       "replays started by the replay timer (the NAK was lost)");
      retrains = &stats.counter("retrains", "events",
                                "link retrainings (REPLAY_NUM rolled over): the wire stalls");
      recovery_ps = &stats.counter("replay_recovery_ps", "ps",
                                   "time the wire was held between a corrupted TLP and its replay "
                                   "(NAK or timer, retraining included)");
    }
    // The wire is busy while it moves a packet's bytes.
    busy = &stats.busy("utilisation", "fraction of time the wire carries packet bytes", {wire});
    tx_depth = &stats.occupancy("tx_queue_depth", "packets", "packets in the transmit buffer");
    posted_held = &stats.occupancy("posted_credits_held", "packets",
                                   "posted header credits consumed and not yet returned");
    track = TransactionTrace::instance().track(name);
    tx_track = TransactionTrace::instance().counter(name + ".tx_queue", "packets");
    credits_track = TransactionTrace::instance().counter(name + ".posted_credits_held", "packets");
    // Credits coming back may let waiting packets go: a method, so waking it costs no thread.
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&posted.released());
    opts.set_sensitivity(&nonposted.released());
    opts.set_sensitivity(&completion.released());
    opts.set_sensitivity(&replay.released());
    opts.dont_initialize();
    sc_core::sc_spawn([&link, this] { link.place_waiting(*this); },
                      sc_core::sc_gen_unique_name((dir_name + "_credits").c_str()), &opts);
    if (t.acknowledged) {
      // The receiver's ACK timer: a method, woken only when due.
      sc_core::sc_spawn_options ack_opts;
      ack_opts.spawn_method();
      ack_opts.set_sensitivity(&ack_timer);
      ack_opts.dont_initialize();
      sc_core::sc_spawn([&link, this] { link.send_ack(*this); },
                        sc_core::sc_gen_unique_name((dir_name + "_ack_timer").c_str()), &ack_opts);
    }
    CreditPool* pools[3] = {&posted, &nonposted, &completion};
    for (int k = 0; k < 3; ++k) fc[k].credits = pools[k];
    // Link packets due on this wire are booked when it next moves, or when its figures are read.
    stats.on_settle([&link, this](const sc_time& end) { link.book_due_link_packets(*this, end); });
  }

  std::string name;
  SerialResource line;                       // the wire itself
  TransmitBuffer tx;                         // packets waiting for or on the wire
  CreditPool posted, nonposted, completion;  // the receiver's credits, by class
  CreditPool replay;                         // the replay buffer, in bytes (acknowledged links)
  FaultInjector lcrc_error, nak_loss;        // faults on this wire's packets (acknowledged links)
  uint32_t replay_num = 0;                   // replays of the packet being resent
  uint32_t link_owed = 0;  // link packets sent between booked packets: the next one pays
  // The receiver's side of the data link layer, for this wire's packets: packets not yet
  // acknowledged, the ACK timer, and per credit class when the latest packet was taken and
  // when the latest credit update leaves.
  uint32_t unacked = 0;
  sc_core::sc_event ack_timer;
  struct FcUpdates {
    CreditPool* credits = nullptr;
    sc_time last_taken = sc_core::SC_ZERO_TIME;
    sc_time departs = sc_core::SC_ZERO_TIME;
    bool any = false;
  };
  std::array<FcUpdates, 3> fc;  // posted, non-posted, completion
  // Link packets this wire sends at a known later time (credit updates), earliest first.
  struct DueLinkPacket {
    sc_time at;
    Counter* kind;
    const char* name;
  };
  std::deque<DueLinkPacket> due;
  std::deque<Waiting> waiting;      // packets waiting for credits, in order
  DeliveryQueue<Packet> in_flight;  // packets on the wire or not yet taken
  bool at_header = false;           // delivered when the header arrives (cut-through receiver)
  uint64_t delivered_bytes = 0;     // traced signal: payload bytes that have arrived

  StatGroup stats;
  std::array<Counter*, kPacketKinds> sent{};
  ByteFlow *payload = nullptr, *wire = nullptr;
  Counter *credit_stall_ps = nullptr, *credit_waits = nullptr, *replay_stall_ps = nullptr;
  Counter* link_bytes = nullptr;
  Counter *acks = nullptr, *naks = nullptr, *flow_updates = nullptr;
  Counter *lcrc_errors = nullptr, *replays = nullptr, *replay_timeouts = nullptr,
          *retrains = nullptr, *recovery_ps = nullptr;
  BusyTime* busy = nullptr;
  Occupancy* tx_depth = nullptr;
  Occupancy* posted_held = nullptr;
  int track = -1;
  int tx_track = -1, credits_track = -1;  // counter tracks: transmit buffer, posted credits
};

SplitLink::SplitLink(sc_core::sc_module_name name, int link_id)
    : sc_module(name), link_id_(link_id) {}

void SplitLink::build(std::unique_ptr<LinkFormat> format, const LinkTiming& timing, Attach a,
                      Attach b) {
  format_ = std::move(format);
  timing_ = timing;
  // Every packet size a link can carry, looked up rather than computed per packet.
  const double ps_per_byte = 1e12 / timing_.bytes_per_second;
  const uint32_t largest = std::max(format_->max_wire_bytes(), timing_.link_packet_bytes);
  serialisation_.resize(largest + 1);
  for (size_t n = 0; n < serialisation_.size(); ++n)
    serialisation_[n] = picoseconds(n * ps_per_byte);
  latency_ = picoseconds(timing_.latency_ns * 1e3);
  fc_delay_ = picoseconds(timing_.flow_update_ns * 1e3);
  link_packet_time_ = serialisation_[timing_.link_packet_bytes];
  ack_timer_ = picoseconds(timing_.ack_timer_ns * 1e3);
  replay_timeout_ = picoseconds(timing_.replay_timeout_ns * 1e3);
  retrain_ = picoseconds(timing_.retrain_ns * 1e3);
  dir_[A] = std::make_unique<Direction>(*this, "down", timing_);
  dir_[B] = std::make_unique<Direction>(*this, "up", timing_);
  const double bps = timing_.bytes_per_second;
  for (int s = 0; s < 2; ++s) {
    Direction& d = *dir_[s];
    d.stats.derived("payload_bandwidth_GBps", "GB/s", "payload bytes moved per second of run",
                    [&d] { return d.payload->rate(hs::now()) / 1e9; });
    d.stats.derived("payload_efficiency", "fraction", "payload bytes / wire bytes", [&d] {
      const double wire = d.wire->within(hs::now());
      return wire > 0 ? d.payload->within(hs::now()) / wire : 0.0;
    });
    d.stats.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", bps, {d.wire});
    d.stats.derived("line_rate_GBps", "GB/s", "line rate after encoding",
                    [bps]() -> double { return bps / 1e9; });
    // The transmit buffer and the receiver's posted-header credits hold no more than they have.
    d.stats.capacity_ceiling("tx_queue_depth", *d.tx_depth, timing_.tx_queue);
    if (timing_.header_credits[0] > 0) {
      d.stats.capacity_ceiling("posted_credits_held", *d.posted_held, timing_.header_credits[0]);
    }
    SignalTrace::instance().add(d.delivered_bytes, d.name + ".delivered_bytes");
  }
  const Attach attach[2] = {a, b};
  for (int s = 0; s < 2; ++s) {
    if (attach[s] != Attach::Fabric) continue;
    ports_[s] = std::make_unique<TransactionPort>(s == A ? "a" : "b", *this, static_cast<Side>(s));
    receiver_[s] = ports_[s].get();
  }
}

SplitLink::~SplitLink() = default;

TransactionPort& SplitLink::port(Side s) {
  if (!ports_[s]) {
    throw std::logic_error(fmt::format("{}: side {} has no transaction port (a bridge sits there)",
                                       name(), s == A ? "A" : "B"));
  }
  return *ports_[s];
}

void SplitLink::connect(Side s, PacketReceiver& receiver) {
  if (receiver_[s]) throw std::logic_error(fmt::format("{}: side connected twice", name()));
  receiver_[s] = &receiver;
}

void SplitLink::receiver_never_waits(Side receiver) {
  dir_[receiver == B ? A : B]->in_flight.take_in_place();  // the direction towards it
}

void SplitLink::deliver_at_header(Side receiver) {
  dir_[receiver == B ? A : B]->at_header = true;
}

sc_time SplitLink::serialisation(const Packet& p) const {
  return serialisation_[format_->wire_bytes(p)];
}

std::vector<uint8_t> SplitLink::spare_buffer() {
  if (spare_buffers_.empty()) return {};
  std::vector<uint8_t> b = std::move(spare_buffers_.back());
  spare_buffers_.pop_back();
  return b;
}

void SplitLink::recycle(std::vector<uint8_t>&& buffer) {
  if (buffer.capacity() > 0) spare_buffers_.push_back(std::move(buffer));
}

uint64_t SplitLink::packets(int dir, PacketKind k) const {
  return dir_[dir]->sent[static_cast<int>(k)]->value;
}

uint64_t SplitLink::payload_bytes(int dir) const {
  return dir_[dir]->payload->total();
}

const std::string& SplitLink::direction_name(int dir) const {
  return dir_[dir]->name;
}

// Link packets due by now that the wire has not booked yet (booked when it next moves).
uint64_t SplitLink::due_link_packet_bytes(int dir) const {
  const sc_time now = hs::now();
  uint64_t bytes = 0;
  for (const auto& due : dir_[dir]->due) {
    if (due.at <= now) bytes += timing_.link_packet_bytes;
  }
  return bytes;
}

uint64_t SplitLink::wire_bytes(int dir) const {
  return dir_[dir]->wire->total() + due_link_packet_bytes(dir);
}

uint64_t SplitLink::link_packet_bytes(int dir) const {
  return dir_[dir]->link_bytes->value + due_link_packet_bytes(dir);
}

void SplitLink::send(Side from, Packet&& p, sc_time& local) {
  Direction& d = *dir_[from];
  local = std::max(local, hs::now());
  d.tx.wait_for_slot(local);
  enqueue(d, std::move(p), local, true);
  local = std::max(local, hs::now());
}

void SplitLink::post(Side from, Packet&& p, const sc_time& ready) {
  enqueue(*dir_[from], std::move(p), std::max(ready, hs::now()), false);
}

void SplitLink::enqueue(Direction& d, Packet&& p, const sc_time& ready, bool through_tx_queue) {
  if (d.waiting.empty()) {
    if (const auto end = try_place(d, p, ready)) {
      if (through_tx_queue) {
        const sc_time now = hs::now();
        set_tx_depth(d, d.tx.occupy_until(*end, now), now);
      }
      return;
    }
  }
  ++*d.credit_waits;
  if (!through_tx_queue) {
    d.waiting.push_back({std::move(p), ready, nullptr});
    return;
  }
  Waiting::Placement placement;
  d.waiting.push_back({std::move(p), ready, &placement});
  while (!placement.placed) sc_core::wait(placement.on_wire);
  const sc_time now = hs::now();
  set_tx_depth(d, d.tx.occupy_until(std::max(placement.end, now), now), now);
}

void SplitLink::set_tx_depth(Direction& d, int depth, const sc_time& now) {
  d.tx_depth->set(depth, now);
  TransactionTrace::instance().count(d.tx_track, now, depth);
}

void SplitLink::place_waiting(Direction& d) {
  while (!d.waiting.empty()) {
    Waiting& w = d.waiting.front();
    const auto end = try_place(d, w.packet, std::max(w.ready, hs::now()));
    if (!end) return;
    if (w.sender) {
      w.sender->end = *end;
      w.sender->placed = true;
      w.sender->on_wire.notify();
    }
    d.waiting.pop_front();
  }
}

CreditPool& SplitLink::credits_for(Direction& d, const Packet& p) {
  switch (p.kind) {
    case PacketKind::Write:
      return d.posted;
    case PacketKind::Read:
      return d.nonposted;
    default:
      return d.completion;
  }
}

std::optional<sc_time> SplitLink::try_place(Direction& d, Packet& p, const sc_time& ready) {
  const uint32_t payload = p.has_data() ? p.len : 0;
  const uint32_t wire_bytes = format_->wire_bytes(p);
  const uint32_t dcred = format_->data_credits(p);
  CreditPool& credits = credits_for(d, p);
  book_due_link_packets(d, hs::now());  // link packets due by now go before this one
  const sc_time wire_ready = std::max(ready, d.line.free_at());
  const std::optional<sc_time> credit_ready = credits.available_at(dcred, wire_ready);
  if (!credit_ready) return std::nullopt;
  // Room in the replay buffer: the transmitter keeps the packet until it is acknowledged.
  sc_time replay_ready = *credit_ready;
  if (timing_.acknowledged) {
    const std::optional<sc_time> r = d.replay.available_at(wire_bytes, *credit_ready);
    if (!r) return std::nullopt;
    replay_ready = *r;
  }
  if (*credit_ready > wire_ready) *d.credit_stall_ps += (*credit_ready - wire_ready).value();
  if (replay_ready > *credit_ready) *d.replay_stall_ps += (replay_ready - *credit_ready).value();

  const sc_time& ser = serialisation_[wire_bytes];
  // Link packets that went out while packets were booked ahead of them are paid for here.
  const sc_time owed = link_packet_time_ * static_cast<double>(d.link_owed);
  sc_time start = d.line.reserve(replay_ready, owed + ser) + owed;
  if (d.link_owed) {
    d.wire->add(start - owed, start, uint64_t{timing_.link_packet_bytes} * d.link_owed);
    d.link_owed = 0;
  }
  credits.consume(dcred, start);
  if (timing_.acknowledged) d.replay.consume(wire_bytes, start);
  if (&credits == &d.posted) {
    d.posted_held->set(d.posted.headers_in_use(), hs::now());
    TransactionTrace::instance().count(d.credits_track, hs::now(), d.posted.headers_in_use());
  }
  // A corrupted copy is sent again until one arrives whole; the packets behind it wait.
  while (d.lcrc_error.hit()) {
    d.wire->add(start, start + ser, wire_bytes);
    start = replay_after_error(d, start + ser, ser);
  }
  d.replay_num = 0;
  const sc_time end = start + ser;

  d.wire->add(start, end, wire_bytes);  // also the wire's busy time
  d.payload->add(start, end, payload);
  ++*d.sent[static_cast<int>(p.kind)];
  if (d.track >= 0) {
    const nlohmann::json args = {{"address", p.addr},
                                 {"bytes", payload},
                                 {"wire_bytes", wire_bytes},
                                 {"data_credits", dcred}};
    TransactionTrace::instance().span(d.track, format_->kind_name(p.kind), start, end, &args);
  }
  p.head = start + serialisation_[format_->header_bytes(p)] + latency_;
  p.tail = end + latency_;
  const sc_time due = d.at_header ? p.head : p.tail;
  d.in_flight.push(due, std::move(p));
  return end;
}

void SplitLink::arrive(Direction& d, Packet& p) {
  const Side receiver = &d == dir_[A].get() ? B : A;
  if (timing_.acknowledged) acknowledge(d);  // the packet arrived whole
  if (p.has_data()) d.delivered_bytes += p.len;
  CreditPool& credits = credits_for(d, p);
  PacketReceiver* r = receiver_[receiver];
  if (!r) throw std::logic_error(fmt::format("{}: nothing connected to receive", d.name));
  const sc_time taken = r->take(p);
  return_credits(d, credits, hs::now() + taken);
  recycle(std::move(p.data));
}

void SplitLink::return_credits(Direction& d, CreditPool& credits, const sc_time& taken) {
  if (credits.infinite()) return;  // infinite credits are never updated
  // The receiver's credit update leaves fc_update after it took the packet and crosses the
  // wire on the other direction; credits freed before it leaves ride on it. Its departure is
  // known now, so the credits' return is scheduled now, and the update is booked on its wire
  // when that wire next moves (no event per update).
  Direction::FcUpdates& u = d.fc[&credits == &d.posted ? 0 : &credits == &d.nonposted ? 1 : 2];
  u.last_taken = std::max(taken, u.last_taken);
  if (!u.any || u.last_taken > u.departs) {
    u.any = true;
    u.departs = u.last_taken + fc_delay_;
    schedule_link_packet(other(d), u.departs, *other(d).flow_updates, format_->flow_update_name());
  }
  credits.release(u.departs + link_packet_time_ + latency_);
}

void SplitLink::schedule_link_packet(Direction& wire, const sc_time& at, Counter& kind,
                                     const char* name) {
  if (at <= hs::now()) {
    send_link_packet(wire, at, kind, name);
    return;
  }
  auto it = wire.due.end();
  while (it != wire.due.begin() && std::prev(it)->at > at) --it;
  wire.due.insert(it, {at, &kind, name});
}

void SplitLink::book_due_link_packets(Direction& wire, const sc_time& upto) {
  while (!wire.due.empty() && wire.due.front().at <= upto) {
    const Direction::DueLinkPacket due = wire.due.front();
    wire.due.pop_front();
    book_link_packet(wire, due.at, *due.kind, due.name);
  }
}

sc_time SplitLink::send_link_packet(Direction& wire, const sc_time& at, Counter& kind,
                                    const char* name) {
  book_due_link_packets(wire, hs::now());
  book_link_packet(wire, at, kind, name);
  return at + link_packet_time_ + latency_;
}

void SplitLink::book_link_packet(Direction& wire, const sc_time& at, Counter& kind,
                                 const char* name) {
  ++kind;
  *wire.link_bytes += timing_.link_packet_bytes;
  if (wire.line.free_at() <= at) {  // an idle wire: the link packet has it to itself
    wire.line.reserve(at, link_packet_time_);
    wire.wire->add(at, at + link_packet_time_, timing_.link_packet_bytes);
  } else {
    // Link packets go ahead of packets waiting to start, but this wire's packets are booked
    // ahead of time: the link packet's timing is that of going at once, and its wire time is
    // owed by the next packet booked, so the wire's bytes and busy time stay exact.
    ++wire.link_owed;
  }
  // An instant: a link packet that goes while packets are booked would overlap their spans.
  TransactionTrace::instance().instant(wire.track, name, at);
}

void SplitLink::acknowledge(Direction& d) {
  if (++d.unacked >= timing_.ack_coalesce) {
    send_ack(d);
  } else if (d.unacked == 1) {
    d.ack_timer.notify(ack_timer_);
  }
}

void SplitLink::send_ack(Direction& d) {
  if (d.unacked == 0) return;
  const sc_time back = send_link_packet(other(d), hs::now(), *other(d).acks, "ACK");
  for (; d.unacked > 0; --d.unacked) d.replay.release(back);  // the ACK covers them all
  d.ack_timer.cancel();
}

sc_time SplitLink::replay_after_error(Direction& d, const sc_time& end, const sc_time& ser) {
  ++*d.lcrc_errors;
  TransactionTrace::instance().span(d.track, "LCRC error", end - ser, end);
  // The receiver finds the bad LCRC when the packet arrives and answers with a NAK on the other
  // direction; if the NAK is lost, the transmitter's replay timer (started when the packet went
  // out) expires instead. Either way every packet from the corrupted one on is sent again: the
  // wire is held until then, so the packets behind it go after its replay, in order.
  sc_time replay_at;
  const sc_time nak_back = send_link_packet(other(d), end + latency_, *other(d).naks, "NAK");
  if (d.nak_loss.hit()) {
    ++*d.replay_timeouts;
    replay_at = std::max(nak_back, end - ser + replay_timeout_);
  } else {
    replay_at = nak_back;
  }
  ++*d.replays;
  if (++d.replay_num == 4) {  // REPLAY_NUM rolled over: the physical layer retrains the link
    ++*d.retrains;
    d.replay_num = 0;
    TransactionTrace::instance().span(d.track, "retrain", replay_at, replay_at + retrain_);
    replay_at += retrain_;
  }
  *d.recovery_ps += (replay_at - end).value();
  d.line.reserve(end, replay_at - end);  // held: nothing passes the corrupted packet
  return d.line.reserve(replay_at, ser);
}

}  // namespace hs::link
