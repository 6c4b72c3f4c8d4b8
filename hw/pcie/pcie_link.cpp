#include "hw/pcie/pcie_link.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include <deque>
#include <iterator>

#include "tlm/check/checker.h"
#include "tlm/fault/fault_injector.h"
#include "tlm/kernel/now.h"
#include "tlm/link/delivery_queue.h"
#include "tlm/params/param_registry.h"
#include "tlm/timing/clock.h"
#include "tlm/timing/token_pool.h"
#include "tlm/timing/transmit_buffer.h"
#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::pcie {

using sc_core::sc_time;

// A blocking read in progress: lives on the requester's stack until its last completion.
struct PcieLink::ReadCtx {
  uint32_t requests_pending = 0;
  bool error = false;
  sc_core::sc_event done;
};

// A TLP waiting for credits, and what its initiator (if one waits for it) learns when it
// goes.
struct PcieLink::Waiting {
  struct Placement {
    sc_core::sc_event on_wire;
    sc_time end;
    bool placed = false;
  };
  Tlp tlp;
  sc_time ready;
  Placement* initiator = nullptr;  // null for the completer's TLPs
};

struct PcieLink::Direction {
  Direction(PcieLink& link, const std::string& dir_name,
            tlm_utils::simple_initiator_socket<PcieLink>& out_socket, const PcieConfig& c)
      : name(std::string(link.name()) + "." + dir_name),
        out(out_socket),
        tx(c.tx_queue),
        posted(c.ph, c.pd),
        nonposted(c.nph, 0),
        completion(c.cplh, c.cpld),
        replay(0, c.replay_buffer),
        lcrc_error(ParamScope(name), "lcrc_error", "corrupt TLPs (an LCRC error at the receiver)",
                   "TLP", 0.5),
        nak_loss(ParamScope(name), "nak_loss",
                 "lose the NAK answering a corrupted TLP (the replay timer then recovers)", "NAK"),
        in_flight([&link, this](Tlp& t) { link.arrive(*this, t); }),
        stats(name),
        mwr(stats.counter("tlps_mwr", "TLPs", "memory write TLPs sent")),
        mrd(stats.counter("tlps_mrd", "TLPs", "memory read request TLPs sent")),
        cpld_tlps(stats.counter("tlps_cpld", "TLPs", "completion-with-data TLPs sent")),
        cpl_tlps(stats.counter("tlps_cpl", "TLPs", "completions without data (errors) sent")),
        payload(stats.bytes("payload_bytes", "TLP payload bytes on the wire by the run's end")),
        wire(stats.bytes("wire_bytes",
                         "bytes on the wire by the run's end, including TLP overhead")),
        credit_stall_ps(stats.counter("credit_stall_ps", "ps",
                                      "time TLPs waited for receiver credits with the wire idle")),
        credit_waits(stats.counter("credit_waits", "TLPs",
                                   "TLPs that waited for the receiver to take earlier TLPs "
                                   "before their credits were known")),
        replay_stall_ps(stats.counter("replay_buffer_stall_ps", "ps",
                                      "time TLPs waited for room in the replay buffer (ACKs not "
                                      "yet back) with the wire idle")),
        dllp_bytes(stats.counter("dllp_bytes", "B",
                                 "bytes of DLLPs (ACK, NAK, UpdateFC) this wire carried, framing "
                                 "included")),
        acks(
            stats.counter("dllps_ack", "DLLPs", "ACK DLLPs sent (for the other direction's TLPs)")),
        naks(
            stats.counter("dllps_nak", "DLLPs", "NAK DLLPs sent (for the other direction's TLPs)")),
        update_fcs(stats.counter("dllps_update_fc", "DLLPs",
                                 "UpdateFC DLLPs sent (credits for the other direction)")),
        lcrc_errors(stats.counter("lcrc_errors", "TLPs",
                                  "TLP transmissions corrupted on this wire (injected faults)")),
        replays(
            stats.counter("replays", "TLPs", "TLPs sent again after a NAK or a replay timeout")),
        replay_timeouts(stats.counter("replay_timeouts", "events",
                                      "replays started by the replay timer (the NAK was lost)")),
        retrains(stats.counter("retrains", "events",
                               "link retrainings (REPLAY_NUM rolled over): the wire stalls")),
        recovery_ps(stats.counter("replay_recovery_ps", "ps",
                                  "time the wire was held between a corrupted TLP and its "
                                  "replay (NAK or timer, retraining included)")),
        busy(stats.busy("utilisation", "fraction of time the wire carries TLP bytes",
                        {&wire})),  // the wire is busy while it moves a TLP's bytes
        tx_depth(stats.occupancy("tx_queue_depth", "TLPs", "TLPs in the transmit buffer")),
        posted_held(stats.occupancy("posted_credits_held", "TLPs",
                                    "posted header credits consumed and not yet returned")),
        track(TransactionTrace::instance().track(name)),
        tx_track(TransactionTrace::instance().counter(name + ".tx_queue", "TLPs")),
        credits_track(TransactionTrace::instance().counter(name + ".posted_credits_held", "TLPs")) {
    // Credits coming back may let waiting TLPs go: a method, so waking it costs no thread.
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&posted.released());
    opts.set_sensitivity(&nonposted.released());
    opts.set_sensitivity(&completion.released());
    opts.set_sensitivity(&replay.released());
    opts.dont_initialize();
    sc_core::sc_spawn([&link, this] { link.place_waiting(*this); },
                      sc_core::sc_gen_unique_name((dir_name + "_credits").c_str()), &opts);
    // The receiver's ACK timer and UpdateFC schedule: methods, woken only when due.
    sc_core::sc_spawn_options ack_opts;
    ack_opts.spawn_method();
    ack_opts.set_sensitivity(&ack_timer);
    ack_opts.dont_initialize();
    sc_core::sc_spawn([&link, this] { link.send_ack(*this); },
                      sc_core::sc_gen_unique_name((dir_name + "_ack_timer").c_str()), &ack_opts);
    CreditPool* pools[3] = {&posted, &nonposted, &completion};
    for (int k = 0; k < 3; ++k) fc[k].credits = pools[k];
    // DLLPs due on this wire are booked when it next moves, or when its figures are read.
    stats.on_settle([&link, this](const sc_time& end) { link.book_due_dllps(*this, end); });
  }

  std::string name;
  tlm_utils::simple_initiator_socket<PcieLink>& out;  // delivers into the receiver's fabric
  SerialResource line;                                // the wire itself
  TransmitBuffer tx;                                  // TLPs waiting for or on the wire
  CreditPool posted, nonposted, completion;           // the receiver's credits, by TLP type
  CreditPool replay;                                  // the replay buffer, in bytes
  FaultInjector lcrc_error, nak_loss;                 // faults on this wire's TLPs
  uint32_t replay_num = 0;                            // replays of the TLP being resent
  uint32_t dllps_owed = 0;  // DLLPs sent between booked TLPs, whose wire time the next TLP pays
  // The receiver's side of the data link layer, for this wire's TLPs: TLPs not yet
  // acknowledged, the ACK timer, and per credit type the TLPs taken whose credits wait for an
  // UpdateFC (the time each was taken, in order).
  uint32_t unacked = 0;
  sc_core::sc_event ack_timer;
  struct FcUpdates {
    CreditPool* credits = nullptr;
    sc_time last_taken = sc_core::SC_ZERO_TIME;  // when the latest TLP was taken
    sc_time departs = sc_core::SC_ZERO_TIME;     // when the latest UpdateFC leaves
    bool any = false;                            // an UpdateFC has been scheduled
  };
  std::array<FcUpdates, 3> fc;  // posted, non-posted, completion
  // DLLPs this wire sends at a known later time (UpdateFCs), earliest first, not yet booked.
  struct DueDllp {
    sc_time at;
    Counter* kind;
    const char* name;
  };
  std::deque<DueDllp> dllps_due;
  std::deque<Waiting> waiting;         // TLPs waiting for credits, in order
  DeliveryQueue<Tlp> in_flight;        // TLPs on the wire or not yet taken
  uint64_t delivered_bytes = 0;        // traced signal: payload bytes that have arrived
  TaggedPayload<PcieTlpExt> delivery;  // reused for every TLP delivered into the receiver

  StatGroup stats;
  Counter &mwr, &mrd, &cpld_tlps, &cpl_tlps;
  ByteFlow &payload, &wire;
  Counter &credit_stall_ps, &credit_waits, &replay_stall_ps;
  Counter& dllp_bytes;
  Counter &acks, &naks, &update_fcs;
  Counter &lcrc_errors, &replays, &replay_timeouts, &retrains, &recovery_ps;
  BusyTime& busy;
  Occupancy& tx_depth;
  Occupancy& posted_held;
  int track;
  int tx_track, credits_track;  // counter tracks: transmit buffer, posted credits held
};

PcieLink::PcieLink(sc_core::sc_module_name name, int link_id)
    : sc_module(name),
      a_in("a_in"),
      b_in("b_in"),
      a_out("a_out"),
      b_out("b_out"),
      link_id_(link_id),
      cfg_(PcieConfig::declare(this->name())) {
  bytes_per_second_ = cfg_.bytes_per_second();
  // Every TLP size a link can carry, looked up rather than computed per TLP.
  const double ps_per_byte = 1e12 / bytes_per_second_;
  serialisation_.resize(std::max(cfg_.mps, cfg_.rcb) + cfg_.tlp_overhead(true) + 1);
  for (size_t b = 0; b < serialisation_.size(); ++b)
    serialisation_[b] = picoseconds(b * ps_per_byte);
  latency_ = picoseconds(cfg_.latency_ns * 1e3);
  fc_delay_ = picoseconds(cfg_.fc_update_ns * 1e3);
  for (auto& t : tags_) t = std::make_unique<TokenPool>(cfg_.tags);
  dir_[A] = std::make_unique<Direction>(*this, "down", b_out, cfg_);
  dir_[B] = std::make_unique<Direction>(*this, "up", a_out, cfg_);
  for (auto& d : dir_) d->delivery.ext.link_id = link_id;
  dllp_time_ = serialisation_[PcieConfig::kDllpWireBytes];
  ack_timer_ = picoseconds(cfg_.ack_timer_ns * 1e3);
  replay_timeout_ = picoseconds(cfg_.replay_timeout_ns * 1e3);
  retrain_ = picoseconds(cfg_.retrain_ns * 1e3);
  a_in.register_b_transport(this, &PcieLink::from_a);
  b_in.register_b_transport(this, &PcieLink::from_b);
  for (int s = 0; s < 2; ++s) {
    Direction& d = *dir_[s];
    const double bps = bytes_per_second_;
    d.stats.derived("payload_bandwidth_GBps", "GB/s", "payload bytes moved per second of run",
                    [&d] { return d.payload.rate(hs::now()) / 1e9; });
    d.stats.derived("payload_efficiency", "fraction", "payload bytes / wire bytes", [&d] {
      const double wire = d.wire.within(hs::now());
      return wire > 0 ? d.payload.within(hs::now()) / wire : 0.0;
    });
    d.stats.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", bps, {&d.wire});
    d.stats.derived("line_rate_GBps", "GB/s", "line rate after encoding",
                    [bps]() -> double { return bps / 1e9; });
    SignalTrace::instance().add(d.delivered_bytes, d.name + ".delivered_bytes");
    SignalTrace::instance().add(
        tags_[s]->in_use(), std::string(this->name()) + (s == A ? ".a" : ".b") + ".tags_in_use");
  }
}

PcieLink::~PcieLink() = default;

void PcieLink::receiver_never_waits(Side receiver) {
  dir_[receiver == B ? A : B]->in_flight.take_in_place();  // the direction towards it
}

uint64_t PcieLink::tlps(int dir, TlpKind k) const {
  const Direction& d = *dir_[dir];
  switch (k) {
    case TlpKind::MWr:
      return d.mwr.value;
    case TlpKind::MRd:
      return d.mrd.value;
    case TlpKind::CplD:
      return d.cpld_tlps.value;
    case TlpKind::Cpl:
      return d.cpl_tlps.value;
  }
  return 0;
}

uint64_t PcieLink::payload_bytes(int dir) const {
  return dir_[dir]->payload.total();
}
// DLLPs due by now that the wire has not booked yet (booked when it next moves).
uint64_t PcieLink::due_dllp_bytes(int dir) const {
  const sc_time now = hs::now();
  uint64_t n = 0;
  for (const auto& due : dir_[dir]->dllps_due) n += due.at <= now;
  return n * PcieConfig::kDllpWireBytes;
}
uint64_t PcieLink::wire_bytes(int dir) const {
  return dir_[dir]->wire.total() + due_dllp_bytes(dir);
}
uint64_t PcieLink::dllp_bytes(int dir) const {
  return dir_[dir]->dllp_bytes.value + due_dllp_bytes(dir);
}

void PcieLink::transport(Side from, tlm::tlm_generic_payload& gp, sc_time& delay) {
  // A transaction another link delivered is the root complex forwarding a TLP from one
  // endpoint to another: peer-to-peer is not supported, as on the modelled root complex.
  if (delivered_by_link(gp)) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (gp.get_byte_enable_ptr() || gp.get_streaming_width() < gp.get_data_length()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  Direction& d = *dir_[from];
  // The caller's local time (loosely timed: now + its annotated delay) is when its TLPs are
  // ready; the thread blocks only while the transmit buffer is full or a read is in flight.
  sc_time local = hs::now() + delay;
  if (gp.is_write()) {
    post_writes(d, gp, local);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);  // posted: no completion comes back
  } else if (gp.is_read()) {
    issue_reads(from, d, gp, local);
  } else {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  delay = local - hs::now();
}

void PcieLink::send(Direction& d, Tlp&& tlp, const sc_time& ready, bool through_tx_queue) {
  if (d.waiting.empty()) {
    if (const auto end = try_place(d, tlp, ready)) {
      if (through_tx_queue) {
        const sc_time now = hs::now();
        set_tx_depth(d, d.tx.occupy_until(*end, now), now);
      }
      return;
    }
  }
  ++d.credit_waits;
  if (!through_tx_queue) {
    d.waiting.push_back({std::move(tlp), ready, nullptr});
    return;
  }
  Waiting::Placement placement;
  d.waiting.push_back({std::move(tlp), ready, &placement});
  while (!placement.placed) sc_core::wait(placement.on_wire);
  const sc_time now = hs::now();
  set_tx_depth(d, d.tx.occupy_until(std::max(placement.end, now), now), now);
}

void PcieLink::set_tx_depth(Direction& d, int depth, const sc_time& now) {
  d.tx_depth.set(depth, now);
  TransactionTrace::instance().count(d.tx_track, now, depth);
}

void PcieLink::place_waiting(Direction& d) {
  while (!d.waiting.empty()) {
    Waiting& w = d.waiting.front();
    const auto end = try_place(d, w.tlp, std::max(w.ready, hs::now()));
    if (!end) return;
    if (w.initiator) {
      w.initiator->end = *end;
      w.initiator->placed = true;
      w.initiator->on_wire.notify();
    }
    d.waiting.pop_front();
  }
}

std::optional<sc_time> PcieLink::try_place(Direction& d, Tlp& tlp, const sc_time& ready) {
  const bool has_data = tlp.kind == TlpKind::MWr || tlp.kind == TlpKind::CplD;
  const bool hdr4 =
      (tlp.kind == TlpKind::MWr || tlp.kind == TlpKind::MRd) && PcieConfig::needs_4dw(tlp.addr);
  const uint32_t payload = has_data ? tlp.len : 0;
  const uint32_t wire_bytes = payload + cfg_.tlp_overhead(hdr4);
  const uint32_t dcred = PcieConfig::data_credits(payload);

  CreditPool& credits = tlp.kind == TlpKind::MWr   ? d.posted
                        : tlp.kind == TlpKind::MRd ? d.nonposted
                                                   : d.completion;
  book_due_dllps(d, hs::now());  // DLLPs due by now go before this TLP is booked
  const sc_time wire_ready = std::max(ready, d.line.free_at());
  const std::optional<sc_time> credit_ready = credits.available_at(dcred, wire_ready);
  if (!credit_ready) return std::nullopt;
  // Room in the replay buffer: the transmitter keeps the TLP until it is acknowledged.
  const std::optional<sc_time> replay_ready = d.replay.available_at(wire_bytes, *credit_ready);
  if (!replay_ready) return std::nullopt;
  if (*credit_ready > wire_ready) d.credit_stall_ps += (*credit_ready - wire_ready).value();
  if (*replay_ready > *credit_ready) d.replay_stall_ps += (*replay_ready - *credit_ready).value();

  const sc_time& ser = serialisation_[wire_bytes];
  // DLLPs that went out while TLPs were booked ahead of them are paid for here.
  const sc_time owed = dllp_time_ * static_cast<double>(d.dllps_owed);
  sc_time start = d.line.reserve(*replay_ready, owed + ser) + owed;
  if (d.dllps_owed) {
    d.wire.add(start - owed, start, uint64_t{PcieConfig::kDllpWireBytes} * d.dllps_owed);
    d.dllps_owed = 0;
  }
  credits.consume(dcred, start);
  d.replay.consume(wire_bytes, start);
  if (&credits == &d.posted) {
    d.posted_held.set(d.posted.headers_in_use(), hs::now());
    TransactionTrace::instance().count(d.credits_track, hs::now(), d.posted.headers_in_use());
  }
  // A corrupted copy is sent again until one arrives whole; the TLPs behind it wait.
  while (d.lcrc_error.hit()) {
    d.wire.add(start, start + ser, wire_bytes);
    start = replay_after_error(d, start + ser, ser);
  }
  d.replay_num = 0;
  const sc_time end = start + ser;

  d.wire.add(start, end, wire_bytes);  // also the wire's busy time
  d.payload.add(start, end, payload);
  switch (tlp.kind) {
    case TlpKind::MWr:
      ++d.mwr;
      break;
    case TlpKind::MRd:
      ++d.mrd;
      break;
    case TlpKind::CplD:
      ++d.cpld_tlps;
      break;
    case TlpKind::Cpl:
      ++d.cpl_tlps;
      break;
  }
  if (d.track >= 0) {
    const nlohmann::json args = {{"address", tlp.addr},
                                 {"bytes", payload},
                                 {"wire_bytes", wire_bytes},
                                 {"data_credits", dcred}};
    TransactionTrace::instance().span(d.track, to_string(tlp.kind), start, end, &args);
  }
  d.in_flight.push(end + latency_, std::move(tlp));
  return end;
}

void PcieLink::return_credits(Direction& d, CreditPool& credits, const sc_time& taken) {
  if (credits.infinite()) return;  // infinite credits are never updated
  // The receiver's UpdateFC leaves fc_update after it took the TLP and crosses the wire on
  // the other direction; credits freed before it leaves ride on it. Its departure is known
  // now, so the credits' return is scheduled now, and the DLLP is booked on its wire when that
  // wire next moves (no event per UpdateFC).
  Direction::FcUpdates& u = d.fc[&credits == &d.posted ? 0 : &credits == &d.nonposted ? 1 : 2];
  u.last_taken = std::max(taken, u.last_taken);
  if (!u.any || u.last_taken > u.departs) {
    u.any = true;
    u.departs = u.last_taken + fc_delay_;
    schedule_dllp(other(d), u.departs, other(d).update_fcs, "UpdateFC");
  }
  credits.release(u.departs + dllp_time_ + latency_);
}

void PcieLink::schedule_dllp(Direction& wire, const sc_time& at, Counter& kind, const char* name) {
  if (at <= hs::now()) {
    send_dllp(wire, at, kind, name);
    return;
  }
  auto it = wire.dllps_due.end();
  while (it != wire.dllps_due.begin() && std::prev(it)->at > at) --it;
  wire.dllps_due.insert(it, {at, &kind, name});
}

void PcieLink::book_due_dllps(Direction& wire, const sc_time& upto) {
  while (!wire.dllps_due.empty() && wire.dllps_due.front().at <= upto) {
    const Direction::DueDllp due = wire.dllps_due.front();
    wire.dllps_due.pop_front();
    book_dllp(wire, due.at, *due.kind, due.name);
  }
}

sc_time PcieLink::send_dllp(Direction& wire, const sc_time& at, Counter& kind, const char* name) {
  book_due_dllps(wire, hs::now());
  book_dllp(wire, at, kind, name);
  return at + dllp_time_ + latency_;
}

void PcieLink::book_dllp(Direction& wire, const sc_time& at, Counter& kind, const char* name) {
  ++kind;
  wire.dllp_bytes += PcieConfig::kDllpWireBytes;
  if (wire.line.free_at() <= at) {  // an idle wire: the DLLP has it to itself
    wire.line.reserve(at, dllp_time_);
    wire.wire.add(at, at + dllp_time_, PcieConfig::kDllpWireBytes);
  } else {
    // DLLPs go ahead of TLPs waiting to start, but this wire's TLPs are booked ahead of time:
    // the DLLP's timing is that of going at once, and its wire time is owed by the next TLP
    // booked, so the wire's bytes and busy time stay exact.
    ++wire.dllps_owed;
  }
  // An instant: a DLLP that goes while TLPs are booked would overlap their spans.
  TransactionTrace::instance().instant(wire.track, name, at);
}

void PcieLink::acknowledge(Direction& d) {
  if (++d.unacked >= cfg_.ack_coalesce) {
    send_ack(d);
  } else if (d.unacked == 1) {
    d.ack_timer.notify(ack_timer_);
  }
}

void PcieLink::send_ack(Direction& d) {
  if (d.unacked == 0) return;
  const sc_time back = send_dllp(other(d), hs::now(), other(d).acks, "ACK");
  for (; d.unacked > 0; --d.unacked) d.replay.release(back);  // the ACK covers them all
  d.ack_timer.cancel();
}

sc_time PcieLink::replay_after_error(Direction& d, const sc_time& end, const sc_time& ser) {
  ++d.lcrc_errors;
  TransactionTrace::instance().span(d.track, "LCRC error", end - ser, end);
  // The receiver finds the bad LCRC when the TLP arrives and answers with a NAK on the other
  // direction; if the NAK is lost, the transmitter's replay timer (started when the TLP went
  // out) expires instead. Either way every TLP from the corrupted one on is sent again: the
  // wire is held until then, so the TLPs behind it go after its replay, in order.
  sc_time replay_at;
  const sc_time nak_back = send_dllp(other(d), end + latency_, other(d).naks, "NAK");
  if (d.nak_loss.hit()) {
    ++d.replay_timeouts;
    replay_at = std::max(nak_back, end - ser + replay_timeout_);
  } else {
    replay_at = nak_back;
  }
  ++d.replays;
  if (++d.replay_num == 4) {  // REPLAY_NUM rolled over: the physical layer retrains the link
    ++d.retrains;
    d.replay_num = 0;
    TransactionTrace::instance().span(d.track, "retrain", replay_at, replay_at + retrain_);
    replay_at += retrain_;
  }
  d.recovery_ps += (replay_at - end).value();
  d.line.reserve(end, replay_at - end);  // held: nothing passes the corrupted TLP
  return d.line.reserve(replay_at, ser);
}

void PcieLink::post_writes(Direction& d, tlm::tlm_generic_payload& gp, sc_time& local) {
  uint64_t addr = gp.get_address();
  const uint8_t* src = gp.get_data_ptr();
  uint64_t remaining = gp.get_data_length();
  while (remaining > 0) {
    const uint32_t n = tlp_chunk(addr, remaining, cfg_.mps);
    d.tx.wait_for_slot(local);
    Tlp t;
    t.kind = TlpKind::MWr;
    t.addr = addr;
    t.len = n;
    if (!spare_buffers_.empty()) {  // recycle delivered TLPs' buffers
      t.data = std::move(spare_buffers_.back());
      spare_buffers_.pop_back();
    }
    t.data.assign(src, src + n);
    send(d, std::move(t), local, true);
    addr += n;
    src += n;
    remaining -= n;
  }
}

void PcieLink::issue_reads(Side from, Direction& d, tlm::tlm_generic_payload& gp, sc_time& local) {
  ReadCtx ctx;
  uint64_t addr = gp.get_address();
  uint8_t* dst = gp.get_data_ptr();
  uint64_t remaining = gp.get_data_length();
  while (remaining > 0) {
    const uint32_t n = tlp_chunk(addr, remaining, cfg_.mrrs);
    // Hold a tag first, then wait for a transmit slot: once held, a tag cannot be lost.
    tags_[from]->acquire();
    local = std::max(local, hs::now());
    d.tx.wait_for_slot(local);
    HS_CHECK(tags_[from]->in_use() <= cfg_.tags,
             "PCIe: reads in flight within the requester's tags", name(),
             "more reads outstanding than tags");
    ++ctx.requests_pending;
    Tlp t;
    t.kind = TlpKind::MRd;
    t.addr = addr;
    t.len = n;
    t.ctx = &ctx;
    t.dst = dst;
    send(d, std::move(t), local, true);
    addr += n;
    dst += n;
    remaining -= n;
  }
  while (ctx.requests_pending > 0) sc_core::wait(ctx.done);
  local = std::max(local, hs::now());
  gp.set_response_status(ctx.error ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
}

void PcieLink::arrive(Direction& d, Tlp& tlp) {
  const Side receiver = &d == dir_[A].get() ? B : A;
  acknowledge(d);  // the TLP arrived whole: the data link layer acknowledges it
  switch (tlp.kind) {
    case TlpKind::MWr: {
      tlm::tlm_generic_payload& gp = d.delivery.gp;
      d.delivery.ext.kind = TlpKind::MWr;
      prepare(gp, tlm::TLM_WRITE_COMMAND, tlp.addr, tlp.data.data(), tlp.len);
      sc_time delay = sc_core::SC_ZERO_TIME;
      d.out->b_transport(gp, delay);
      return_credits(d, d.posted, hs::now() + delay);  // taken when the receiver's delay ends
      d.delivered_bytes += tlp.len;
      spare_buffers_.push_back(std::move(tlp.data));
      // Posted: the requester never hears of a rejection. The model reports it as a fault;
      // a command error at the root complex is its refusal to forward to another link.
      const bool peer_to_peer =
          receiver == A && gp.get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE;
      HS_CHECK(!peer_to_peer, "PCIe: no peer-to-peer request through the root complex", d.name,
               fmt::format("MWr of {} B to {:#x}: unsupported request (the root complex does not "
                           "forward peer-to-peer requests to another link)",
                           tlp.len, tlp.addr));
      HS_CHECK(gp.is_response_ok() || peer_to_peer, "PCIe: posted writes accepted by their target",
               d.name,
               fmt::format("MWr of {} B to {:#x} on the {} side was not accepted ({}): "
                           "unsupported request",
                           tlp.len, tlp.addr, receiver == A ? "root complex" : "endpoint",
                           gp.get_response_string()));
      break;
    }
    case TlpKind::MRd:
      complete_read(d, tlp);
      break;
    case TlpKind::CplD:
    case TlpKind::Cpl: {
      return_credits(d, d.completion, hs::now());  // the requester takes completions at once
      d.delivered_bytes += tlp.len;
      if (tlp.kind == TlpKind::Cpl) tlp.ctx->error = true;
      if (tlp.last_of_request) {
        tags_[receiver]->release();
        if (--tlp.ctx->requests_pending == 0) tlp.ctx->done.notify();
      }
      break;
    }
  }
}

void PcieLink::complete_read(Direction& d, Tlp& mrd) {
  // The completer reads when the request arrives, so every earlier posted write on this
  // direction is already visible: a read never passes a write.
  tlm::tlm_generic_payload& gp = d.delivery.gp;
  d.delivery.ext.kind = TlpKind::MRd;
  prepare(gp, tlm::TLM_READ_COMMAND, mrd.addr, mrd.dst, mrd.len);
  sc_time mem_delay = sc_core::SC_ZERO_TIME;
  d.out->b_transport(gp, mem_delay);

  Direction& back = other(d);
  const sc_time ready = hs::now() + mem_delay;
  return_credits(d, d.nonposted, ready);  // the request is taken once its data is read
  if (!gp.is_response_ok()) {
    Tlp cpl;  // completion without data, status unsupported request
    cpl.kind = TlpKind::Cpl;
    cpl.ctx = mrd.ctx;
    cpl.last_of_request = true;
    send(back, std::move(cpl), ready, false);
    return;
  }
  const std::vector<uint32_t> sizes = cfg_.completion_sizes(mrd.addr, mrd.len);
  uint64_t addr = mrd.addr;
  for (size_t i = 0; i < sizes.size(); ++i) {
    Tlp cpl;
    cpl.kind = TlpKind::CplD;
    cpl.addr = addr;
    cpl.len = sizes[i];
    cpl.ctx = mrd.ctx;
    cpl.last_of_request = i + 1 == sizes.size();
    send(back, std::move(cpl), ready, false);
    addr += sizes[i];
  }
}

}  // namespace hs::pcie
