#include "hw/torus/network/torus_network.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "hw/torus/network/partition.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"
#include "tlm/timing/clock.h"

namespace hs::torus {

namespace {
constexpr uint64_t kNever = UINT64_MAX;
// A cut message: the receiving router, its key (time, sender, the sender's sequence), its kind,
// then a packet (an arrival) or a token return.
constexpr uint8_t kCutArrival = 0, kCutCredit = 1;
struct CutCredit {
  int8_t dir, vc;
  uint8_t chunks;
};
uint64_t ps(double ns) {
  return static_cast<uint64_t>(ns * 1e3 + 0.5);
}
}  // namespace

const char* kind_name(PacketKind k) {
  switch (k) {
    case PacketKind::MemoryFifo:
      return "memory-fifo";
    case PacketKind::DirectPut:
      return "direct-put";
    case PacketKind::RemoteGet:
      return "remote-get";
    case PacketKind::Synthetic:
      return "synthetic";
  }
  return "?";
}

void TorusNetwork::Fifo::push(Packet* p) {
  if (count == mask() + 1) {
    std::vector<Packet*> bigger(2 * (mask() + 1));
    for (uint32_t i = 0; i < count; ++i) bigger[i] = at(i);
    big.swap(bigger);
    head = 0;
  }
  (big.empty() ? small : big.data())[(head + count) & mask()] = p;
  ++count;
}

TorusNetwork::TorusNetwork(sc_core::sc_module_name name, const NetworkConfig& cfg,
                           const Partition* partition)
    : sc_module(name),
      cfg_(cfg),
      shape_(cfg.x, cfg.y, cfg.z, cfg.wrap),
      vcs_(cfg.dynamic_vcs + 2),
      high_vc_(cfg.dynamic_vcs + 1),
      inj_queues_(cfg.injection_queues + 1),
      slots_(kDirs * vcs_ + inj_queues_),
      routing_(routing_functions().get(cfg.routing)),
      selection_(output_selections().get(cfg.selection)),
      arbiter_(output_arbiters().get(cfg.arbitration)),
      wire_ps_(ps(cfg.wire_latency_ns)),
      router_ps_(ps(cfg.router_latency_ns)),
      credit_ps_(ps(cfg.credit_latency_ns)),
      fill_ps_(ps(kChunkBytes * 1e9 / cfg.injection_fill_rate)),
      starvation_ps_(ps(cfg.starvation_bound_ns)),
      entry_extra_(cfg.bubble_rule ? static_cast<int16_t>(kMaxChunks) : int16_t{0}),
      // Both capped so that a full-size packet can always enter an empty buffer.
      dynamic_injection_extra_(static_cast<int16_t>(std::min<int64_t>(
          cfg.injection_reserve_chunks, int64_t{cfg.vc_buffer_chunks} - kMaxChunks))),
      injection_extra_(static_cast<int16_t>(std::max<int64_t>(
          entry_extra_, std::min<int64_t>(entry_extra_ + cfg.injection_reserve_chunks,
                                          int64_t{cfg.vc_buffer_chunks} - kMaxChunks)))),
      part_(partition && !partition->whole() ? partition : nullptr),
      routers_(part_ ? part_->local_nodes().size() : static_cast<size_t>(cfg.nodes())),
      min_tokens_(static_cast<int>(cfg.vc_buffer_chunks)),
      heap_([this](const Action& a) { handle(a); }),
      trace_(this->name(), shape_, vcs_, inj_queues_, static_cast<int>(cfg.vc_buffer_chunks)),
      crc_error_(cfg.link_crc_error.rate, cfg.link_crc_error.at, cfg.link_crc_error.name,
                 static_cast<size_t>(cfg.nodes()) * kDirs),
      retry_ps_(ps(cfg.retry_turnaround_ns())),
      watch_(!cfg.failed_links.empty()),
      stats_(this->name()),
      injected_(stats_.counter("packets_injected", "packets", "packets entering the network")),
      delivered_(stats_.counter("packets_delivered", "packets",
                                "packets leaving at their "
                                "destination")),
      payload_delivered_(stats_.counter("payload_delivered", "B", "payload bytes delivered")),
      wire_bytes_(stats_.bytes("link_bytes",
                               "bytes on links by the run's end, headers and framing included")),
      hops_(stats_.counter("packet_hops", "hops", "link traversals")),
      escape_hops_(stats_.counter("escape_hops", "hops",
                                  "link traversals on the bubble escape "
                                  "VC")),
      token_waits_(stats_.counter("token_waits", "events",
                                  "arbitrations a free output ended without a grant: every "
                                  "requester lacked buffer tokens downstream")),
      link_waits_(
          stats_.counter("link_waits", "events", "requests that found their output's link busy")),
      arbitrations_(stats_.counter("arbitrations", "events", "output arbitrations run")),
      starved_grants_(stats_.counter("starved_grants", "packets",
                                     "grants to packets that had waited past the starvation "
                                     "bound")),
      latency_(stats_.histogram("packet_latency", "ns",
                                "creation to delivery, source queueing "
                                "included")),
      network_latency_(stats_.histogram("network_latency", "ns",
                                        "injection FIFO to delivery: the wait inside the network")),
      hop_count_(stats_.histogram("hops_per_packet", "hops", "links each packet crossed")),
      crc_errors_(stats_.counter("crc_errors", "packets",
                                 "packet copies corrupted on links (injected faults): each failed "
                                 "its CRC check at the receiving router and was dropped")),
      deposited_(stats_.counter("deposited_copies", "packets",
                                "copies of deposit-bit packets delivered at the nodes they "
                                "passed on their line (not counted as packets_delivered)")),
      retransmissions_(stats_.counter("retransmissions", "packets",
                                      "packets sent again from a link's retransmission buffer")),
      retransmitted_bytes_(stats_.counter("retransmitted_bytes", "B",
                                          "wire bytes sent again (included in link_bytes)")),
      crc_hold_ps_(stats_.counter("crc_hold_ps", "ps",
                                  "link time lost to CRC errors: each corrupted copy's "
                                  "serialisation and the turnaround before its retransmission")) {
  if (slots_ > 64) {
    throw InputError(
        fmt::format("torus.network: {} router inputs (dynamic_vcs and "
                    "injection_queues) exceed the 64 the arbiters track",
                    slots_));
  }
  const int n = shape_.nodes();
  for (uint32_t c = 1; c <= kMaxChunks; ++c) {
    ser_ps_[c] = ps(cfg.serialisation_ns(c));
    rx_ps_[c] = ps(c * kChunkBytes * 1e9 / cfg.reception_bytes_per_second);
  }
  // Every per-router array: this partition's routers only (own(node)).
  const size_t r = routers_;
  endpoints_.assign(r, nullptr);
  inputs_.resize(r * kDirs * vcs_);
  injections_.resize(r * inj_queues_);
  inj_held_.assign(r * inj_queues_, 0);
  fill_done_ps_.assign(r * inj_queues_, 0);
  tokens_.assign(r * kDirs * vcs_, static_cast<int16_t>(cfg.vc_buffer_chunks));
  lazy_credits_.resize(r);
  link_free_ps_.assign(r * kDirs, 0);
  link_busy_ps_.assign(r * kDirs, 0);
  last_grant_ps_.assign(r * kDirs, 0);
  reception_free_ps_.assign(r, 0);
  requesters_.assign(r * kOutputs, 0);
  arb_pending_.assign(r, 0);
  wake_posted_.assign(r * kOutputs, 0);
  rr_.assign(r * kOutputs, 0);
  requests_.assign(r * slots_, Request{});
  if (crc_error_.enabled()) link_crc_errors_.assign(r * kDirs, 0);
  // Each router's identity in the order of same-time actions and its random stream, from its
  // coordinates (and the run's seed): the same whichever routers a process builds.
  origins_.reserve(r);
  selection_rng_.reserve(r);
  neighbours_.resize(r * kDirs);
  for (size_t i = 0; i < r; ++i) {
    const int node = node_of(i);
    const std::string router = std::string(this->name()) + "." + node_label(shape_, node);
    origins_.emplace_back(router);
    selection_rng_.emplace_back(stream_seed(router + ".selection"));
    for (int d = 0; d < kDirs; ++d) neighbours_[i * kDirs + d] = shape_.neighbour(node, d);
  }
  packets_made_.assign(r, 0);
  if (part_) {
    outbox_of_.assign(static_cast<size_t>(part_->parts()), -1);
    for (size_t i = 0; i < part_->neighbours().size(); ++i) {
      outbox_of_[static_cast<size_t>(part_->neighbours()[i])] = static_cast<int>(i);
    }
    outboxes_.assign(part_->neighbours().size(), ByteWriter{});
  }
  for (const FailedLink& f : cfg.failed_links) {
    if (f.at_ns <= 0) {
      fail_link(f.node, f.dir);
    } else {
      post_any(ps(f.at_ns), f.node,
               Action{Op::LinkFail, static_cast<int8_t>(f.dir), 0, 0, f.node, nullptr});
    }
  }

  int links = 0;
  for (int node = 0; node < n; ++node) {
    for (int d = 0; d < kDirs; ++d) links += shape_.neighbour(node, d) >= 0;
  }
  stats_.derived("links", "links", "unidirectional links", [links] { return links; });
  stats_.derived("link_utilisation", "fraction", "mean busy fraction over all links",
                 [this, links] {
                   const uint64_t t = hs::now().value();
                   if (t == 0 || links == 0) return 0.0;
                   return static_cast<double>(busy_sum_within(t)) / static_cast<double>(t) / links;
                 });
  stats_.derived("link_utilisation_max", "fraction", "busiest link's busy fraction",
                 [this] { return busiest_link_utilisation(hs::now().value()); });
  stats_.derived("tokens_outstanding", "chunks",
                 "buffer tokens lent out at the run's end (0 once the network has drained)",
                 [this] { return static_cast<double>(tokens_outstanding()); });
  stats_.derived("transit_wait_max", "ns",
                 "longest an in-transit packet waited at the head of a router input for its "
                 "grant (the starvation bound's target)",
                 [this] { return static_cast<double>(max_transit_wait_ps_) / 1e3; });
  stats_.derived("injection_wait_max", "ns",
                 "longest a packet waited at the head of an injection FIFO (back-pressure on "
                 "the source: in-transit packets go first)",
                 [this] { return static_cast<double>(max_injection_wait_ps_) / 1e3; });
  // Every token return counts as one, whether it was posted or settled when its router next
  // arbitrated (which is decided by what that router was doing when the return reached it).
  stats_.derived("events", "events", "network events: arrivals, token returns, arbitrations, ...",
                 [this] {
                   return static_cast<double>(heap_.handled() + merged_handled_ - foreign_timers_ -
                                              credit_events_ + credits_sent_);
                 });
  stats_.derived("min_free_tokens", "chunks", "fewest free tokens any VC ever had",
                 [this] { return static_cast<double>(min_tokens_); });
  stats_.limit({Limit::Kind::Utilisation, "link_utilisation_max", "fraction",
                [this](const sc_core::sc_time& end) {
                  return Limit::Reading{busiest_link_utilisation(end.value()), 1.0, 0.0};
                }});
  if (links > 0) {  // a one-node machine has no links to limit
    stats_.rate_ceiling(Limit::Kind::LineRate, "link_bytes", links * cfg.link_bytes_per_second,
                        {&wire_bytes_});
  }
  stats_.derived("bisection_bound", "B/s",
                 "per-node injection rate (wire bytes) that saturates the bisection under "
                 "uniform random traffic",
                 [this] { return cfg_.bisection_bound_per_node(); });
}

namespace {
// A link carries one packet at a time, each from the hop's time on: only the latest can run
// past a window's end, and it started inside the window.
uint64_t busy_within(uint64_t busy_ps, uint64_t free_ps, uint64_t t_ps) {
  return busy_ps - (free_ps > t_ps ? free_ps - t_ps : 0);
}
}  // namespace

uint64_t TorusNetwork::free_before(size_t l) const {
  uint64_t free = link_free_ps_[l];
  if (free == kFailed) {
    const size_t link = machine_link(node_of(l / kDirs), static_cast<int>(l % kDirs));
    for (const LinkFailure& f : failures_) free = f.link == link ? f.free_before_ps : free;
  }
  return free;
}

uint64_t TorusNetwork::link_busy_within(size_t l, uint64_t t_ps) const {
  return busy_within(link_busy_ps_[l], free_before(l), t_ps);
}

TorusNetwork::Footprint TorusNetwork::footprint() const {
  const size_t link_vcs = kDirs * static_cast<size_t>(vcs_);
  const size_t queues = static_cast<size_t>(inj_queues_);
  Footprint f;
  for (size_t routers :
       {endpoints_.size(), lazy_credits_.size(), reception_free_ps_.size(), arb_pending_.size(),
        origins_.size(), selection_rng_.size(), packets_made_.size(), inputs_.size() / link_vcs,
        tokens_.size() / link_vcs, injections_.size() / queues, inj_held_.size() / queues,
        fill_done_ps_.size() / queues, requests_.size() / static_cast<size_t>(slots_),
        requesters_.size() / kOutputs, wake_posted_.size() / kOutputs, rr_.size() / kOutputs}) {
    f.routers = std::max(f.routers, routers);
  }
  for (size_t links : {neighbours_.size(), link_free_ps_.size(), link_busy_ps_.size(),
                       last_grant_ps_.size(), link_crc_errors_.size()}) {
    f.links = std::max(f.links, links);
  }
  f.routers = std::max(f.routers, f.links / kDirs);
  return f;
}

uint64_t TorusNetwork::link_busy_ps(int node, int dir, uint64_t t_ps) const {
  if (local(node)) return link_busy_within(link_index(node, dir), t_ps);
  if (!merged_links_) return 0;
  const size_t l = machine_link(node, dir);
  return busy_within(merged_links_->busy_ps[l], merged_links_->free_ps[l], t_ps);
}

uint64_t TorusNetwork::crc_errors(int node, int dir) const {
  if (link_crc_errors_.empty()) return 0;
  if (local(node)) return link_crc_errors_[link_index(node, dir)];
  return merged_links_ ? merged_links_->crc_errors[machine_link(node, dir)] : 0;
}

bool TorusNetwork::link_failed(int node, int dir) const {
  if (local(node)) return link_free_ps_[link_index(node, dir)] == kFailed;
  const size_t link = machine_link(node, dir);
  return std::any_of(failures_.begin(), failures_.end(),
                     [link](const LinkFailure& f) { return f.link == link; });
}

uint64_t TorusNetwork::busy_sum_within(uint64_t t_ps) const {
  uint64_t sum = 0;  // exact: the same however the links are summed
  for (size_t l = 0; l < link_busy_ps_.size(); ++l) sum += link_busy_within(l, t_ps);
  if (merged_links_) {
    for (size_t l = 0; l < merged_links_->busy_ps.size(); ++l) {
      sum += busy_within(merged_links_->busy_ps[l], merged_links_->free_ps[l], t_ps);
    }
  }
  return sum;
}

double TorusNetwork::busiest_link_utilisation(uint64_t t_ps) const {
  if (t_ps == 0) return 0.0;
  uint64_t busiest = 0;
  for (size_t l = 0; l < link_busy_ps_.size(); ++l) {
    busiest = std::max(busiest, link_busy_within(l, t_ps));
  }
  if (merged_links_) {
    for (size_t l = 0; l < merged_links_->busy_ps.size(); ++l) {
      busiest = std::max(busiest,
                         busy_within(merged_links_->busy_ps[l], merged_links_->free_ps[l], t_ps));
    }
  }
  return static_cast<double>(busiest) / static_cast<double>(t_ps);
}

int64_t TorusNetwork::tokens_outstanding() const {
  int64_t lent = merged_tokens_lent_;
  for (int16_t t : tokens_) lent += static_cast<int64_t>(cfg_.vc_buffer_chunks) - t;
  const uint64_t now = hs::now().value();
  for (const auto& router : lazy_credits_) {
    for (const LazyCredit& c : router.list) lent -= c.key.at <= now ? c.chunks : 0;
  }
  for (const LazyCredit& c : merged_lazy_) lent -= c.key.at <= now ? c.chunks : 0;
  return lent;
}

std::vector<std::string> TorusNetwork::undelivered(size_t max) const {
  std::vector<std::string> out;
  auto describe = [&](const Packet& p, int node, const std::string& where) {
    if (out.size() >= max) return;
    out.push_back(fmt::format("packet {} {}->{} waiting at {} {}", packet_label(shape_, p),
                              shape_.name(p.src), shape_.name(p.dest), shape_.name(node), where));
  };
  for (size_t r = 0; r < routers_; ++r) {  // in node order
    const int node = node_of(r);
    for (int slot = 0; slot < slots_; ++slot) {
      const Fifo& f = slot_fifo(node, slot);
      for (uint32_t i = 0; i < f.count; ++i) describe(*f.at(i), node, slot_name(slot));
    }
  }
  return out;
}

std::string TorusNetwork::slot_name(int slot) const {
  if (slot >= kDirs * vcs_) return fmt::format("injection FIFO {}", slot - kDirs * vcs_);
  return fmt::format("input {} VC {}", dir_name(slot / vcs_),
                     slot % vcs_ == 0          ? std::string("escape")
                     : slot % vcs_ == high_vc_ ? std::string("high-priority")
                                               : std::to_string(slot % vcs_));
}

std::vector<StuckTraffic> TorusNetwork::collect_stuck() const {
  std::vector<StuckTraffic> out;
  for (size_t r = 0; r < routers_; ++r) {  // in node order
    const int node = node_of(r);
    for (int slot = 0; slot < slots_; ++slot) {
      const Fifo& f = slot_fifo(node, slot);
      if (f.count == 0) continue;
      // Every packet of a FIFO waits for what its head waits for.
      const uint8_t outputs = request_at(node, slot).outputs;
      std::string failed, blocked;
      for (int d = 0; d < kDirs; ++d) {
        if (!(outputs >> d & 1)) continue;
        if (link_failed(node, d)) {
          failed += (failed.empty() ? "failed link " : ", ") + link_label(shape_, node, d);
        } else {
          blocked += (blocked.empty() ? "buffer tokens on " : ", ") + std::string(dir_name(d));
        }
      }
      const std::string waits_for = !failed.empty()    ? failed
                                    : !blocked.empty() ? blocked
                                                       : "the packets ahead of it";
      const size_t first = out.size();
      for (uint32_t i = 0; i < f.count; ++i) {
        const Packet& p = *f.at(i);
        auto same = [&](const StuckTraffic& s) { return s.src == p.src && s.dest == p.dest; };
        auto it = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), same);
        if (it != out.end()) {
          ++it->packets;
        } else {
          out.push_back({p.src, p.dest, node, slot_name(slot), waits_for, 1});
        }
      }
    }
  }
  return out;
}

const TorusNetwork::Fifo& TorusNetwork::router_fifo(size_t r, int slot) const {
  // A link input's index, (r * kDirs + dir) * vcs_ + vc, is r * kDirs * vcs_ + slot.
  const int links = kDirs * vcs_;
  return slot < links ? inputs_[r * static_cast<size_t>(links) + static_cast<size_t>(slot)]
                      : injections_[r * static_cast<size_t>(inj_queues_) +
                                    static_cast<size_t>(slot - links)];
}

bool TorusNetwork::inject(int queue, Packet* p) {
  const int node = p->src;
  const size_t q = own(node) * inj_queues_ + queue;
  uint32_t& held = inj_held_[q];
  if (held >= cfg_.injection_queue_packets) return false;
  if (p->deposit) {
    // Its copies must land on one line: the endpoint refuses anything else before injecting.
    if (shape_.line_dimension(node, p->dest) < 0) {
      throw std::logic_error(fmt::format("{}: deposit packet {}->{} is not on a line", name(),
                                         shape_.name(node), shape_.name(p->dest)));
    }
    // Dimension order along the line: adaptive routing could skip no node, but the hardware
    // takes the deterministic route for deposits.
    if (p->vc_class == VcClass::Dynamic) p->vc_class = VcClass::Deterministic;
  }
  ++held;
  const uint64_t now = hs::now().value();
  p->id = packet_id(node, packets_made_[own(node)]++);
  if (p->created_ps == 0) p->created_ps = now;
  p->injected_ps = now;
  if (trace_.on()) trace_.injection(node, queue, held, now);
  // Store and forward into the FIFO: the header chunk is in now, the rest follow at the write
  // port's rate after any packet still being written.
  fill_done_ps_[q] = std::max(now, fill_done_ps_[q]) + (p->chunks - 1u) * fill_ps_;
  p->arrived_ps = fill_done_ps_[q];
  p->prev_dir = -1;
  p->hops = 0;
  p->escaped = false;
  p->deposited = false;
  Fifo& f = injection(node, queue);
  f.push(p);
  ++injected_;
  if (f.count == 1) next_head(node, slot_of_injection(queue));
  return true;
}

void TorusNetwork::schedule(const sc_core::sc_time& at, NetworkTimer* timer, int node) {
  post_any(at.value(), node, Action{Op::Timer, 0, 0, 0, node, timer});
}

void TorusNetwork::post_foreign(uint64_t at, int node, const Action& a) {
  auto it = std::find_if(foreign_origins_.begin(), foreign_origins_.end(),
                         [node](const auto& o) { return o.first == node; });
  if (it == foreign_origins_.end()) {
    foreign_origins_.emplace_back(node,
                                  Origin(std::string(name()) + "." + node_label(shape_, node)));
    it = foreign_origins_.end() - 1;
  }
  heap_.post(at, it->second, a);
}

void TorusNetwork::handle(const Action& a) {
  const uint64_t now = hs::now().value();
  switch (a.op) {
    case Op::Arrive: {
      auto* p = static_cast<Packet*>(a.ptr);
      p->arrived_ps = now;
      Fifo& f = link_input(a.node, p->prev_dir, p->vc);
      f.push(p);
      if (f.count == 1) request(a.node, slot_of_link(p->prev_dir, p->vc));
      break;
    }
    case Op::Ready:
      request(a.node, slot_of_injection(a.a));
      break;
    case Op::Credit:
      ++credit_events_;
      tokens(a.node, a.a, a.vc) += a.chunks;
      if (trace_.on()) trace_.tokens(a.node, a.a, a.vc, tokens(a.node, a.a, a.vc), now);
      if (!link_failed(a.node, a.a)) post_arbitrate(a.node, a.a);
      break;
    case Op::OutputFree:
      wake_posted_[output_index(a.node, a.a)] = 0;
      post_arbitrate(a.node, a.a);
      break;
    case Op::InjectionSlotFree: {
      const size_t r = own(a.node);
      --inj_held_[r * inj_queues_ + a.a];
      if (trace_.on()) trace_.injection(a.node, a.a, inj_held_[r * inj_queues_ + a.a], now);
      if (endpoints_[r]) endpoints_[r]->injection_ready(a.a);
      break;
    }
    case Op::Deliver: {
      auto* p = static_cast<Packet*>(a.ptr);
      if (p->deposit && p->dest != a.node) {  // a deposit copy: the packet itself goes on
        ++deposited_;
        endpoints_[own(a.node)]->deliver(p);
        break;
      }
      ++delivered_;
      payload_delivered_ += p->payload_bytes;
      latency_.sample(static_cast<double>(now - p->created_ps) / 1e3);
      network_latency_.sample(static_cast<double>(now - p->injected_ps) / 1e3);
      hop_count_.sample(p->hops);
      endpoints_[own(a.node)]->deliver(p);
      break;
    }
    case Op::Arbitrate: {
      settle_credits(a.node);
      // Every output of the node that asked during this instant, one event for all.
      uint8_t& arb_pending = arb_pending_[own(a.node)];
      while (uint8_t pending = arb_pending) {
        const int out = __builtin_ctz(pending);
        arb_pending = static_cast<uint8_t>(pending & (pending - 1));
        if (out == kReception) {
          arbitrate_reception(a.node);
        } else {
          arbitrate(a.node, out);
        }
      }
      break;
    }
    case Op::Timer:
      if (!local(a.node)) ++foreign_timers_;  // counted where its router lives
      static_cast<NetworkTimer*>(a.ptr)->on_timer(a.node);
      break;
    case Op::LinkFail:
      if (!local(a.node)) ++foreign_timers_;  // counted where its router lives
      fail_link(a.node, a.a);
      break;
    case Op::Watch:
      watch_posted_ = false;
      break;
  }
  // A partition's own heap running dry says nothing of the others': a parallel run watches
  // for a standstill once every partition's figures are merged (check_progress_merged).
  if (watch_ && heap_.pending() == 0 && !part_) check_progress();
}

void TorusNetwork::fail_link(int node, int dir) {
  const uint64_t now = hs::now().value();
  // Every partition runs every link's failure (for the list of failures a standstill names);
  // only the router's own partition holds the link.
  if (!local(node)) {
    failures_.push_back({machine_link(node, dir), now, 0});
    return;
  }
  // A packet already on the link gets across (its arrival is posted); nothing follows it.
  const size_t l = link_index(node, dir);
  failures_.push_back({machine_link(node, dir), now, link_free_ps_[l]});
  link_free_ps_[l] = kFailed;
  if (trace_.on()) trace_.link_failed(node, dir, now);
}

void TorusNetwork::check_progress() {
  if (in_flight() == 0 || !stuck_.empty()) return;
  // A packet the endpoint refused moves when it makes room (reception_ready).
  if (reception_waits()) return;
  report_standstill(collect_stuck());
}

std::vector<uint64_t> TorusNetwork::window_sums() const {
  if (!watch_ || !part_) return {};
  return {injected_.value, delivered_.value, heap_.pending(), reception_waits() ? 1u : 0u};
}

bool TorusNetwork::standstill(const std::vector<uint64_t>& sums) {
  if (sums.size() != 4 || standstill_) return false;
  // As check_progress, on the whole machine: nothing pending anywhere, packets in flight, none
  // waiting for an endpoint to make room.
  standstill_ = sums[2] == 0 && sums[0] > sums[1] && sums[3] == 0;
  return standstill_;
}

void TorusNetwork::check_progress_merged() {
  if (!standstill_ || !stuck_.empty()) return;
  if (!merged_any_) merged_stuck_ = collect_stuck();  // one partition: its own view is whole
  std::stable_sort(merged_stuck_.begin(), merged_stuck_.end(),
                   [](const StuckTraffic& a, const StuckTraffic& b) { return a.node < b.node; });
  report_standstill(std::move(merged_stuck_));
}

bool TorusNetwork::reception_waits() const {
  for (size_t r = 0; r < routers_; ++r) {
    if (requesters_[r * kOutputs + kReception]) return true;
  }
  return false;
}

void TorusNetwork::report_standstill(std::vector<StuckTraffic> stuck) {
  stuck_ = std::move(stuck);
  std::string failed;
  for (const LinkFailure& f : failures_) {
    failed += fmt::format(
        "{}{} (at {} ns)", failed.empty() ? "" : ", ",
        link_label(shape_, static_cast<int>(f.link / kDirs), static_cast<int>(f.link % kDirs)),
        static_cast<double>(f.at_ps) / 1e3);
  }
  const std::string message = fmt::format(
      "failed link{} {}: the network can make no more progress with {} packet{} in flight, stuck "
      "in {} group{} (packets source->destination at node, queue, waiting for):{}",
      failures_.size() == 1 ? "" : "s", failed, in_flight(), in_flight() == 1 ? "" : "s",
      stuck_.size(), stuck_.size() == 1 ? "" : "s", describe_stuck(shape_, stuck_, 32));
  std::fprintf(stderr, "hybridsim: %s: %s\n", name(), message.c_str());
  CheckRegistry::instance().fail("torus links: no traffic is stuck behind a failed link", name(),
                                 message);
}

void TorusNetwork::request(int node, int slot) {
  const size_t router = own(node);
  Packet* p = router_fifo(router, slot).front();
  Request& r = requests_[router * static_cast<size_t>(slots_) + static_cast<size_t>(slot)];
  r = Request{};
  r.since_ps = hs::now().value();
  if (p->dest == node || (fault_eject_early_ && p->src != node) ||
      (p->deposit && !p->deposited && p->src != node)) {
    // A deposit packet asks for the reception port first; once its copy is taken it asks for
    // its next link (arbitrate_reception).

    if (p->dest != node) fault_eject_early_ = false;
    r.outputs = 1u << kReception;
  } else {
    const Route route = routing_.route(shape_, node, *p);
    r.escape = route.escape_dir;
    if (fault_misroute_ && p->src == node && route.dynamic_dirs == 0) {
      fault_misroute_ = false;
      r.escape = static_cast<int8_t>(opposite(r.escape));
    }
    r.dynamic = p->vc_class == VcClass::HighPriority ? 0 : route.dynamic_dirs;
    r.outputs = static_cast<uint8_t>(r.dynamic | (1u << r.escape));
  }
  const uint64_t bit = 1ull << slot;
  uint64_t* requesters = &requesters_[router * kOutputs];
  for (unsigned m = r.outputs; m; m &= m - 1) {  // the requested outputs, lowest first
    const int out = __builtin_ctz(m);
    requesters[out] |= bit;
    if (post_arbitrate(node, out)) ++link_waits_;
  }
}

void TorusNetwork::receive_credit(int node, const LazyCredit& c) {
  const size_t o = output_index(node, c.dir);
  // Traced, every return is an event, so the trace shows each when it lands.
  if (trace_.on() || (requesters_[o] && !wake_posted_[o] && !link_failed(node, c.dir))) {
    heap_.post_keyed(c.key, Action{Op::Credit, c.dir, c.vc, c.chunks, node, nullptr});
    return;
  }
  lazy_credits_[own(node)].add(c);
  heap_.hold_until(c.key.at);  // the run still ends when the last token is back
}

void TorusNetwork::post_lazy_credits(int node, int out) {
  LazyCredits& lc = lazy_credits_[own(node)];
  if (!(lc.dirs >> out & 1)) return;
  auto& list = lc.list;
  lc.earliest = kNever;
  lc.dirs = 0;
  for (size_t i = 0; i < list.size();) {
    const LazyCredit c = list[i];
    // One that has landed had nothing to wake: it is settled when the node arbitrates.
    if (c.dir != out || heap_.passed(c.key)) {
      lc.earliest = std::min(lc.earliest, c.key.at);
      lc.dirs = static_cast<uint8_t>(lc.dirs | 1u << c.dir);
      ++i;
      continue;
    }
    heap_.post_keyed(c.key, Action{Op::Credit, c.dir, c.vc, c.chunks, node, nullptr});
    list[i] = list.back();
    list.pop_back();
  }
}

void TorusNetwork::settle_credits(int node) {
  const size_t r = own(node);
  LazyCredits& lc = lazy_credits_[r];
  if (lc.earliest > hs::now().value()) return;
  auto& list = lc.list;
  lc.earliest = kNever;
  lc.dirs = 0;
  int16_t* router_tokens = &tokens_[r * kDirs * static_cast<size_t>(vcs_)];
  for (size_t i = 0; i < list.size();) {
    const LazyCredit c = list[i];
    if (!heap_.passed(c.key)) {
      lc.earliest = std::min(lc.earliest, c.key.at);
      lc.dirs = static_cast<uint8_t>(lc.dirs | 1u << c.dir);
      ++i;
      continue;
    }
    router_tokens[c.dir * vcs_ + c.vc] += c.chunks;
    list[i] = list.back();
    list.pop_back();
  }
}

void TorusNetwork::note_wait(int node, int slot) {
  const uint64_t wait = hs::now().value() - request_at(node, slot).since_ps;
  uint64_t& worst = slot < kDirs * vcs_ ? max_transit_wait_ps_ : max_injection_wait_ps_;
  worst = std::max(worst, wait);
}

void TorusNetwork::withdraw(int node, int slot) {
  Request& r = request_at(node, slot);
  const uint64_t keep = ~(1ull << slot);
  uint64_t* requesters = &requesters_[output_index(node, 0)];
  for (unsigned m = r.outputs; m; m &= m - 1) requesters[__builtin_ctz(m)] &= keep;
  r.outputs = 0;
}

// Arbitrates `out` once every event of this instant has run (so requests arriving at the same
// instant compete), or when it frees if it is busy.
bool TorusNetwork::post_arbitrate(int node, int out) {
  const size_t r = own(node);
  const size_t o = r * kOutputs + static_cast<size_t>(out);
  uint8_t& pending = arb_pending_[r];
  if ((pending >> out & 1) || requesters_[o] == 0) return false;
  const uint64_t now = hs::now().value();
  const uint64_t free = out == kReception ? reception_free_ps_[r]
                                          : link_free_ps_[r * kDirs + static_cast<size_t>(out)];
  if (free > now) {
    wake_when_free(node, out, free);
    return true;
  }
  if (pending == 0) heap_.post(now, origins_[r], Action{Op::Arbitrate, 0, 0, 0, node, nullptr});
  pending = static_cast<uint8_t>(pending | 1u << out);
  return false;
}

void TorusNetwork::wake_when_free(int node, int out, uint64_t free_ps) {
  const size_t r = own(node);
  uint8_t& posted = wake_posted_[r * kOutputs + static_cast<size_t>(out)];
  if (posted) return;
  if (free_ps == kFailed) {  // never frees: see whether the network is left standing still
    if (!watch_posted_) {
      watch_posted_ = true;
      post(hs::now().value(), node, Action{Op::Watch, 0, 0, 0, node, nullptr});
    }
    return;
  }
  posted = 1;
  heap_.post(free_ps, origins_[r],
             Action{Op::OutputFree, static_cast<int8_t>(out), 0, 0, node, nullptr});
}

TorusNetwork::Choice TorusNetwork::choose_vc(int node, const Packet& p, const Request& r, int dir,
                                             bool& blocked_entering) const {
  const int16_t need = p.chunks;
  Choice c{-1, false};
  if (r.dynamic >> dir & 1) {  // the dynamic VC with the most tokens
    int16_t best = -1;
    for (int vc = 1; vc <= cfg_.dynamic_vcs; ++vc) {
      const int16_t t = tokens(node, dir, vc);
      if (t >= need + (p.prev_dir < 0 ? dynamic_injection_extra_ : 0) && t > best) {
        best = t;
        c.vc = static_cast<int8_t>(vc);
      }
    }
    if (c.vc >= 0) return c;
  }
  if (dir != r.escape) return c;
  // Escape (or high-priority) VC: only when no dynamic VC of any minimal direction has tokens.
  if (r.dynamic != 0 && has_dynamic_tokens(node, p, r)) return c;
  const int vc = p.vc_class == VcClass::HighPriority ? high_vc_ : 0;
  const bool entering = !(p.prev_dir == dir && p.vc == vc);
  const int16_t t = tokens(node, dir, vc);
  // Entering from an injection FIFO also leaves the injection reserve free for in-transit
  // packets changing dimension (network_config.h).
  const int16_t extra = entering ? (p.prev_dir < 0 ? injection_extra_ : entry_extra_) : int16_t{0};
  if (t >= need + extra) {
    c.vc = static_cast<int8_t>(vc);
    c.entering = entering;
  } else if (entering && t >= need) {
    blocked_entering = true;
  }
  return c;
}

bool TorusNetwork::has_dynamic_tokens(int node, const Packet& p, const Request& r) const {
  for (unsigned m = r.dynamic; m; m &= m - 1) {
    const int d = __builtin_ctz(m);
    for (int vc = 1; vc <= cfg_.dynamic_vcs; ++vc) {
      if (tokens(node, d, vc) >= p.chunks) return true;
    }
  }
  return false;
}

// Serves link `out` of `node`: high-priority packets first, then the arbiter's pick among the
// eligible requests. A starved request that only the bubble rule keeps out holds its ring's
// entry (output_arbiter.h). An adaptive winner may take another free minimal output instead,
// as the selection rule says; then `out` arbitrates again.
void TorusNetwork::arbitrate(int node, int out) {
  const uint64_t now = hs::now().value();
  const size_t o = output_index(node, out);
  const uint64_t* link_free = &link_free_ps_[link_index(node, 0)];
  for (;;) {
    if (requesters_[o] == 0) return;
    if (link_free[out] > now) {
      wake_when_free(node, out, link_free[out]);
      return;
    }
    ++arbitrations_;
    std::array<ArbRequest, 64> normal, high;
    std::array<Choice, 64> choice;
    int nn = 0, nh = 0;
    uint32_t held_vcs = 0;  // VCs whose ring entry a starved packet holds
    for (uint64_t m = requesters_[o]; m; m &= m - 1) {
      const int slot = __builtin_ctzll(m);
      const Packet& p = *slot_fifo(node, slot).front();
      const Request& r = request_at(node, slot);
      bool blocked_entering = false;
      const Choice c = choose_vc(node, p, r, out, blocked_entering);
      const bool starved = now - r.since_ps > starvation_ps_;
      if (c.vc < 0) {
        if (starved && blocked_entering && slot < kDirs * vcs_) {
          held_vcs |= 1u << (p.vc_class == VcClass::HighPriority ? high_vc_ : 0);
        }
        continue;
      }
      choice[slot] = c;
      const ArbRequest a{static_cast<uint8_t>(slot), slot >= kDirs * vcs_, starved, p.injected_ps,
                         r.since_ps};
      if (c.vc == high_vc_) {
        high[nh++] = a;
      } else {
        normal[nn++] = a;
      }
    }
    if (held_vcs) {  // entering packets wait behind the starved one; continuing ones pass
      auto held = [&](const ArbRequest& a) {
        return choice[a.slot].entering && (held_vcs >> choice[a.slot].vc & 1);
      };
      nn = static_cast<int>(std::remove_if(normal.begin(), normal.begin() + nn, held) -
                            normal.begin());
      nh = static_cast<int>(std::remove_if(high.begin(), high.begin() + nh, held) - high.begin());
    }
    if (nn + nh == 0) {
      if (fault_overrun_ && overrun(node, out)) continue;
      ++token_waits_;
      post_lazy_credits(node, out);
      return;  // a credit on this output posts the next arbitration
    }
    const ArbRequest& won = nh ? high[arbiter_.pick(high.data(), nh, rr_[o])]
                               : normal[arbiter_.pick(normal.data(), nn, rr_[o])];
    if (won.starved) ++starved_grants_;
    const int slot = won.slot;
    int dir = out, vc = choice[slot].vc;
    const Request& r = request_at(node, slot);
    if (vc != 0 && vc != high_vc_ && (r.dynamic & ~(1u << out))) {
      // Adaptive: every free dynamic option, then the selection rule.
      const Packet& p = *slot_fifo(node, slot).front();
      std::array<OutputOption, kDirs * 4> opts;
      int n = 0;
      for (unsigned m = r.dynamic; m; m &= m - 1) {  // in direction order, as the rule expects
        const int d = __builtin_ctz(m);
        if (link_free[d] > now) continue;
        for (int v = 1; v <= cfg_.dynamic_vcs; ++v) {
          const int16_t t = tokens(node, d, v);
          if (t >= p.chunks) {
            opts[n++] = OutputOption{static_cast<int8_t>(d), static_cast<int8_t>(v), t,
                                     last_grant_ps_[link_index(node, d)]};
          }
        }
      }
      const OutputOption& pick = opts[selection_.pick(opts.data(), n, selection_rng_[own(node)])];
      dir = pick.dir;
      vc = pick.vc;
    }
    grant(node, slot, dir, vc);
    if (dir == out) {
      if (requesters_[o]) wake_when_free(node, out, link_free[out]);
      return;
    }
  }
}

bool TorusNetwork::overrun(int node, int out) {
  for (uint64_t m = requesters_[output_index(node, out)]; m; m &= m - 1) {
    const int slot = __builtin_ctzll(m);
    const Packet& p = *slot_fifo(node, slot).front();
    const int vc = p.vc_class == VcClass::HighPriority ? high_vc_ : 0;
    if (request_at(node, slot).escape == out && tokens(node, out, vc) < p.chunks) {
      fault_overrun_ = false;
      grant(node, slot, out, vc);
      return true;
    }
  }
  return false;
}

void TorusNetwork::arbitrate_reception(int node) {
  const uint64_t now = hs::now().value();
  const size_t o = output_index(node, kReception);
  uint64_t& reception_free = reception_free_ps_[own(node)];
  while (requesters_[o]) {
    if (reception_free > now) {
      wake_when_free(node, kReception, reception_free);
      return;
    }
    ++arbitrations_;
    std::array<ArbRequest, 64> req;
    int n = 0, nh = 0;
    for (uint64_t m = requesters_[o]; m; m &= m - 1) {
      const int slot = __builtin_ctzll(m);
      const Packet& p = *slot_fifo(node, slot).front();
      const Request& r = request_at(node, slot);
      const ArbRequest a{static_cast<uint8_t>(slot), slot >= kDirs * vcs_,
                         now - r.since_ps > starvation_ps_, p.injected_ps, r.since_ps};
      if (p.vc_class == VcClass::HighPriority) {  // high priority first: keep them in front
        req[n++] = req[nh];
        req[nh++] = a;
      } else {
        req[n++] = a;
      }
    }
    const int slot = req[arbiter_.pick(req.data(), nh ? nh : n, rr_[o])].slot;
    Packet* p = slot_fifo(node, slot).front();
    NodeEndpoint* ep = endpoints_[own(node)];
    if (!ep) {
      CheckRegistry::instance().fail(
          "torus network: every destination node has an endpoint", name(),
          fmt::format("packet {} for node {} which has no endpoint attached",
                      packet_label(shape_, *p), shape_.name(node)));
      return;
    }
    if (!ep->accept(*p)) return;  // the endpoint calls reception_ready
    reception_free = now + rx_ps_[p->chunks];
    // Cut-through: the tail arrives one serialisation after the head, however fast the port.
    const uint64_t done = std::max(now + rx_ps_[p->chunks], p->arrived_ps + ser_ps_[p->chunks]);
    if (p->deposit && p->dest != node) {
      deposit_copy(node, slot, done);
      continue;
    }
    note_wait(node, slot);
    if (p->prev_dir < 0) p->launched_ps = now;
    withdraw(node, slot);
    release_input(node, *p, slot, done);
    slot_fifo(node, slot).pop();
    post(done, node, Action{Op::Deliver, 0, 0, 0, node, p});
    next_head(node, slot);
  }
}

void TorusNetwork::deposit_copy(int node, int slot, uint64_t done) {
  // The router delivers a copy and keeps the packet at the head of its input: it now asks
  // for its next link on the line (its wait there starts now).
  Packet* p = slot_fifo(node, slot).front();
  Packet* copy = pool_.take();
  *copy = *p;
  p->deposited = true;
  withdraw(node, slot);
  post(done, node, Action{Op::Deliver, 0, 0, 0, node, copy});
  request(node, slot);
}

void TorusNetwork::release_input(int node, const Packet& p, int in_slot, uint64_t at) {
  if (in_slot >= kDirs * vcs_) {
    post(at, node,
         Action{Op::InjectionSlotFree, static_cast<int8_t>(in_slot - kDirs * vcs_), 0, 0, node,
                nullptr});
    return;
  }
  // The buffer belongs to the upstream router's output in the packet's travel direction: its
  // tokens go back there, a token latency after the tail left.
  const int upstream = neighbour(node, opposite(p.prev_dir));
  const uint8_t chunks = static_cast<uint8_t>(p.chunks - (fault_leak_token_ ? 1 : 0));
  fault_leak_token_ = false;
  ++credits_sent_;
  const LazyCredit c{origins_[own(node)].next(at + credit_ps_), p.prev_dir, p.vc, chunks};
  if (local(upstream)) {
    receive_credit(upstream, c);
  } else {
    const CutCredit body{c.dir, c.vc, c.chunks};
    send_cut(upstream, c.key, kCutCredit, &body, sizeof body);
  }
}

void TorusNetwork::grant(int node, int slot, int dir, int vc) {
  const uint64_t now = hs::now().value();
  Fifo& f = slot_fifo(node, slot);
  Packet* p = f.front();
  const uint64_t ser = ser_ps_[p->chunks];
  // The copy that passes its CRC check leaves at `start` (now, unless some were corrupted).
  const uint64_t start =
      crc_error_.hit(machine_link(node, dir)) ? retransmit(node, dir, *p, now, ser) : now;
  const size_t l = link_index(node, dir);
  link_free_ps_[l] = start + ser;
  link_busy_ps_[l] += start + ser - now;
  last_grant_ps_[l] = now;
  int16_t& t = tokens(node, dir, vc);
  t = static_cast<int16_t>(t - p->chunks);
  if (t < min_tokens_) {
    min_tokens_ = t;
    if (t < 0) {
      CheckRegistry::instance().fail(
          "torus network: buffer tokens never negative", name(),
          fmt::format("{} link {} VC {} has {} tokens", shape_.name(node), dir_name(dir), vc, t));
    }
  }
  note_wait(node, slot);
  withdraw(node, slot);
  release_input(node, *p, slot, now + ser);
  f.pop();
  if (hop_observer_) hop_observer_(*p, node, dir);
  if (trace_.on()) {
    trace_.hop(*p, node, dir, vc, start, start + ser);
    trace_.tokens(node, dir, vc, t, now);
  }
  ++hops_;
  wire_bytes_.add(sc_core::sc_time::from_value(start), sc_core::sc_time::from_value(start + ser),
                  cfg_.wire_bytes(p->chunks));
  if (vc == 0) ++escape_hops_;
  ++p->hops;
  p->vc = static_cast<int8_t>(vc);
  if (p->prev_dir < 0) p->launched_ps = now;
  p->prev_dir = static_cast<int8_t>(dir);
  p->escaped = p->escaped || vc == 0;
  p->deposited = false;
  // The head reaches the next router's output arbiters after the wire and, unless the packet
  // leaves there, that router's pipeline (network_config.h).
  const int next = neighbour(node, dir);
  const uint64_t head_at = start + wire_ps_ + (next == p->dest ? 0 : router_ps_);
  if (local(next)) {
    post(head_at, node, Action{Op::Arrive, 0, 0, 0, next, p});
    prefetch_arrival(next, dir, vc);
  } else {  // across the cut: the packet travels as a copy, its buffer here goes back
    send_cut(next, origins_[own(node)].next(head_at), kCutArrival, p, sizeof *p);
    pool_.give(p);
  }
  next_head(node, slot);
}

// Only a hint to the cache: the next router's state for this input is far from anything the
// events before the arrival touch, and a miss there was the largest single cost per hop.
void TorusNetwork::prefetch_arrival(int node, int dir, int vc) const {
  const int slot = slot_of_link(dir, vc);
  const size_t r = own(node);
  __builtin_prefetch(&inputs_[(r * kDirs + static_cast<size_t>(dir)) * vcs_ + vc]);
  __builtin_prefetch(&requests_[r * slots_ + slot]);
  // A node's requesters and link free times may straddle two cache lines.
  __builtin_prefetch(&requesters_[r * kOutputs]);
  __builtin_prefetch(&requesters_[r * kOutputs + kOutputs - 1]);
  __builtin_prefetch(&link_free_ps_[r * kDirs]);
  __builtin_prefetch(&link_free_ps_[r * kDirs + kDirs - 1]);
  __builtin_prefetch(&lazy_credits_[r]);
  __builtin_prefetch(&arb_pending_[r]);
}

uint64_t TorusNetwork::retransmit(int node, int dir, const Packet& p, uint64_t start,
                                  uint64_t ser) {
  const uint32_t bytes = cfg_.wire_bytes(p.chunks);
  do {
    // The corrupted copy crosses the wire and is dropped at the receiver; the sender hears of
    // it a turnaround after its tail left and goes back to it: nothing passes it meanwhile.
    ++crc_errors_;
    ++link_crc_errors_[link_index(node, dir)];
    ++retransmissions_;
    retransmitted_bytes_ += bytes;
    crc_hold_ps_ += ser + retry_ps_;
    wire_bytes_.add(sc_core::sc_time::from_value(start), sc_core::sc_time::from_value(start + ser),
                    bytes);
    if (trace_.on()) trace_.crc_error(p, node, dir, start, start + ser, start + ser + retry_ps_);
    start += ser + retry_ps_;
  } while (crc_error_.hit(machine_link(node, dir)));
  return start;
}

void TorusNetwork::next_head(int node, int slot) {
  const Packet* p = slot_fifo(node, slot).front();
  if (!p) return;
  if (p->arrived_ps > hs::now().value()) {  // an injection FIFO's packet still being written
    post(p->arrived_ps, node,
         Action{Op::Ready, static_cast<int8_t>(slot - kDirs * vcs_), 0, 0, node, nullptr});
  } else {
    request(node, slot);
  }
}

void TorusNetwork::send_cut(int to_node, const Order& key, uint8_t kind, const void* body,
                            size_t size) {
  ByteWriter& w =
      outboxes_[static_cast<size_t>(outbox_of_[static_cast<size_t>(part_->owner(to_node))])];
  w.put<int32_t>(to_node);
  w.put(key);
  w.put(kind);
  w.put_raw(body, size);
  ++cut_sent_;
}

std::vector<Bytes> TorusNetwork::take_cut_messages() {
  std::vector<Bytes> out;
  out.reserve(outboxes_.size());
  for (ByteWriter& w : outboxes_) out.push_back(w.take());
  return out;
}

void TorusNetwork::receive_cut_messages(const Bytes& in) {
  ByteReader r(in);
  while (!r.done()) {
    const auto node = r.get<int32_t>();
    const auto key = r.get<Order>();
    if (r.get<uint8_t>() == kCutArrival) {
      Packet* p = pool_.take();
      r.get_raw(p, sizeof *p);
      heap_.post_keyed(key, Action{Op::Arrive, 0, 0, 0, node, p});
    } else {
      const auto c = r.get<CutCredit>();
      receive_credit(node, LazyCredit{key, c.dir, c.vc, c.chunks});
    }
  }
}

Bytes TorusNetwork::save_partition() const {
  ByteWriter w;
  // This partition's links, router by router in node order: their busy times, when each frees
  // (a failed link: when its last packet left it) and their CRC errors.
  std::vector<int32_t> nodes(routers_);
  std::vector<uint64_t> free(link_free_ps_.size());
  for (size_t r = 0; r < routers_; ++r) nodes[r] = node_of(r);
  for (size_t l = 0; l < free.size(); ++l) free[l] = free_before(l);
  w.put_vector(nodes);
  w.put_vector(link_busy_ps_);
  w.put_vector(free);
  w.put_vector(link_crc_errors_);
  int64_t lent = 0;
  for (int16_t t : tokens_) lent += static_cast<int64_t>(cfg_.vc_buffer_chunks) - t;
  w.put(lent);
  w.put(max_transit_wait_ps_);
  w.put(max_injection_wait_ps_);
  w.put(min_tokens_);
  w.put(heap_.handled() + merged_handled_ - foreign_timers_);
  w.put(credit_events_);
  w.put(credits_sent_);
  std::vector<LazyCredit> lazy;
  for (const LazyCredits& router : lazy_credits_) {
    lazy.insert(lazy.end(), router.list.begin(), router.list.end());
  }
  w.put_vector(lazy);
  // The traffic stuck in this partition, when the partitions saw the network stand still.
  if (standstill_) {
    const std::vector<StuckTraffic> stuck = collect_stuck();
    w.put<uint64_t>(stuck.size());
    for (const StuckTraffic& t : stuck) {
      for (int v : {t.src, t.dest, t.node}) w.put(v);
      w.put_string(t.queue);
      w.put_string(t.waits_for);
      w.put(t.packets);
    }
  }
  return w.take();
}

void TorusNetwork::merge_partition(const Bytes& b) {
  ByteReader r(b);
  const auto nodes = r.get_vector<int32_t>();
  const auto busy = r.get_vector<uint64_t>();
  const auto free = r.get_vector<uint64_t>();
  const auto crc = r.get_vector<uint64_t>();
  if (!merged_links_) {  // the whole machine's links, only here and only now
    const size_t links = static_cast<size_t>(shape_.nodes()) * kDirs;
    merged_links_ = std::make_unique<MergedLinks>();
    merged_links_->busy_ps.assign(links, 0);
    merged_links_->free_ps.assign(links, 0);
    if (!link_crc_errors_.empty()) merged_links_->crc_errors.assign(links, 0);
  }
  MergedLinks& m = *merged_links_;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (int d = 0; d < kDirs; ++d) {
      const size_t theirs = i * kDirs + static_cast<size_t>(d);
      const size_t link = machine_link(nodes[i], d);
      m.busy_ps[link] = busy.at(theirs);
      m.free_ps[link] = free.at(theirs);
      if (!m.crc_errors.empty()) m.crc_errors[link] = crc.at(theirs);
    }
  }
  merged_tokens_lent_ += r.get<int64_t>();
  max_transit_wait_ps_ = std::max(max_transit_wait_ps_, r.get<uint64_t>());
  max_injection_wait_ps_ = std::max(max_injection_wait_ps_, r.get<uint64_t>());
  min_tokens_ = std::min(min_tokens_, r.get<int>());
  merged_handled_ += r.get<uint64_t>();
  credit_events_ += r.get<uint64_t>();
  credits_sent_ += r.get<uint64_t>();
  const auto lazy = r.get_vector<LazyCredit>();
  merged_lazy_.insert(merged_lazy_.end(), lazy.begin(), lazy.end());
  if (standstill_) {
    if (!merged_any_) {  // the reporting partition's own first
      merged_any_ = true;
      merged_stuck_ = collect_stuck();
    }
    for (auto n = r.get<uint64_t>(); n > 0; --n) {
      StuckTraffic t;
      for (int* v : {&t.src, &t.dest, &t.node}) *v = r.get<int>();
      t.queue = r.get_string();
      t.waits_for = r.get_string();
      t.packets = r.get<uint32_t>();
      merged_stuck_.push_back(std::move(t));
    }
  }
}

}  // namespace hs::torus
