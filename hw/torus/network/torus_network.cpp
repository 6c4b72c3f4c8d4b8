#include "hw/torus/network/torus_network.h"

#include <fmt/format.h>
#include <algorithm>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/timing/clock.h"

namespace hs::torus {

namespace {
constexpr uint64_t kNever = UINT64_MAX;
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
  if (count == ring.size()) {
    std::vector<Packet*> bigger(std::max<size_t>(4, ring.size() * 2));
    for (uint32_t i = 0; i < count; ++i) bigger[i] = ring[(head + i) % ring.size()];
    ring.swap(bigger);
    head = 0;
  }
  ring[(head + count) % ring.size()] = p;
  ++count;
}

TorusNetwork::TorusNetwork(sc_core::sc_module_name name, const NetworkConfig& cfg)
    : sc_module(name),
      cfg_(cfg),
      shape_(cfg.x, cfg.y, cfg.z, cfg.wrap),
      vcs_(cfg.dynamic_vcs + 2),
      high_vc_(cfg.dynamic_vcs + 1),
      inj_queues_(cfg.injection_queues + 1),
      hop_ps_(ps(cfg.hop_latency_ns)),
      credit_ps_(ps(cfg.credit_latency_ns)),
      heap_("torus_events", [this](const Action& a) { handle(a); }),
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
                                  "times a head packet waited for "
                                  "buffer tokens downstream")),
      link_waits_(stats_.counter("link_waits", "events",
                                 "times a head packet waited for a busy "
                                 "link")),
      latency_(stats_.histogram("packet_latency", "ns",
                                "creation to delivery, source queueing "
                                "included")),
      hop_count_(stats_.histogram("hops_per_packet", "hops", "links each packet crossed")) {
  const int n = shape_.nodes();
  for (uint32_t c = 1; c <= kMaxChunks; ++c) {
    ser_ps_[c] = ps(cfg.serialisation_ns(c));
    rx_ps_[c] = ps(c * kChunkBytes * 1e9 / cfg.reception_bytes_per_second);
  }
  endpoints_.assign(n, nullptr);
  inputs_.resize(static_cast<size_t>(n) * kDirs * vcs_);
  injections_.resize(static_cast<size_t>(n) * inj_queues_);
  inj_held_.assign(static_cast<size_t>(n) * inj_queues_, 0);
  tokens_.assign(static_cast<size_t>(n) * kDirs * vcs_, static_cast<int16_t>(cfg.vc_buffer_chunks));
  link_free_ps_.assign(static_cast<size_t>(n) * kDirs, 0);
  link_busy_ps_.assign(static_cast<size_t>(n) * kDirs, 0);
  reception_free_ps_.assign(n, 0);
  scan_at_.assign(n, kNever);
  rr_.assign(n, 0);

  int links = 0;
  for (int node = 0; node < n; ++node) {
    for (int d = 0; d < kDirs; ++d) links += shape_.neighbour(node, d) >= 0;
  }
  stats_.derived("links", "links", "unidirectional links", [links] { return links; });
  stats_.derived("link_utilisation", "fraction", "mean busy fraction over all links",
                 [this, links] {
                   const uint64_t t = hs::now().value();
                   if (t == 0 || links == 0) return 0.0;
                   double sum = 0;
                   for (size_t l = 0; l < link_busy_ps_.size(); ++l) {
                     sum += static_cast<double>(link_busy_within(l, t));
                   }
                   return sum / static_cast<double>(t) / links;
                 });
  stats_.derived("link_utilisation_max", "fraction", "busiest link's busy fraction",
                 [this] { return busiest_link_utilisation(hs::now().value()); });
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

uint64_t TorusNetwork::link_busy_within(size_t link, uint64_t t_ps) const {
  // A link carries one packet at a time, each from the hop's time on: only the latest can run
  // past a window's end, and it started inside the window.
  const uint64_t free = link_free_ps_[link];
  return link_busy_ps_[link] - (free > t_ps ? free - t_ps : 0);
}

double TorusNetwork::busiest_link_utilisation(uint64_t t_ps) const {
  if (t_ps == 0) return 0.0;
  uint64_t busiest = 0;
  for (size_t l = 0; l < link_busy_ps_.size(); ++l) {
    busiest = std::max(busiest, link_busy_within(l, t_ps));
  }
  return static_cast<double>(busiest) / static_cast<double>(t_ps);
}

bool TorusNetwork::inject(int queue, Packet* p) {
  const int node = p->src;
  uint32_t& held = inj_held_[node * inj_queues_ + queue];
  if (held >= cfg_.injection_queue_packets) return false;
  ++held;
  const uint64_t now = hs::now().value();
  p->id = next_id_++;
  if (p->created_ps == 0) p->created_ps = now;
  p->arrived_ps = now;
  p->prev_dir = -1;
  p->hops = 0;
  p->escaped = false;
  injection(node, queue).push(p);
  ++injected_;
  request_scan(node, now);
  return true;
}

void TorusNetwork::schedule(const sc_core::sc_time& at, NetworkTimer* timer, int node) {
  heap_.post(at, Action{Op::Timer, 0, 0, 0, node, timer});
}

void TorusNetwork::request_scan(int node, uint64_t at) {
  if (scan_at_[node] <= at) return;
  scan_at_[node] = at;
  heap_.post(sc_core::sc_time::from_value(at), Action{Op::Scan, 0, 0, 0, node, nullptr});
}

void TorusNetwork::handle(const Action& a) {
  const uint64_t now = hs::now().value();
  switch (a.op) {
    case Op::Arrive: {
      auto* p = static_cast<Packet*>(a.ptr);
      p->arrived_ps = now;
      link_input(a.node, p->prev_dir, p->vc).push(p);
      request_scan(a.node, now);
      break;
    }
    case Op::Credit:
      tokens(a.node, a.a, a.vc) += a.chunks;
      request_scan(a.node, now);
      break;
    case Op::InjectionSlotFree:
      --inj_held_[a.node * inj_queues_ + a.a];
      if (endpoints_[a.node]) endpoints_[a.node]->injection_ready(a.a);
      break;
    case Op::Deliver: {
      auto* p = static_cast<Packet*>(a.ptr);
      ++delivered_;
      payload_delivered_ += p->payload_bytes;
      latency_.sample(static_cast<double>(now - p->created_ps) / 1e3);
      hop_count_.sample(p->hops);
      endpoints_[a.node]->deliver(p);
      break;
    }
    case Op::Scan:
      if (scan_at_[a.node] == now) scan_at_[a.node] = kNever;
      scan(a.node);
      break;
    case Op::Timer:
      static_cast<NetworkTimer*>(a.ptr)->on_timer(a.node);
      break;
  }
}

// Serves the head packets of every input: the high-priority VCs first, then the rest round
// robin from just after the last input served, so competing inputs (two injection FIFOs, or an
// injection FIFO and through traffic) alternate on a shared link. A grant can free a head
// behind it; passes repeat until nothing moves.
void TorusNetwork::scan(int node) {
  uint64_t wait_until = kNever;
  const int link_slots = kDirs * vcs_;
  const int slots = link_slots + inj_queues_;
  auto head = [&](int slot) -> Packet* {
    return slot < link_slots ? link_input(node, slot / vcs_, slot % vcs_).front()
                             : injection(node, slot - link_slots).front();
  };
  auto try_slot = [&](int slot) {
    Packet* p = head(slot);
    if (!p) return false;
    uint64_t w = kNever;
    if (advance(node, p, slot, w) != Outcome::Granted) {
      wait_until = std::min(wait_until, w);
      return false;
    }
    return true;
  };
  bool moved = true;
  for (int pass = 0; moved && pass < 8; ++pass) {
    moved = false;
    for (int d = 0; d < kDirs; ++d) moved |= try_slot(d * vcs_ + high_vc_);
    const int start = rr_[node] % slots;
    for (int i = 0; i < slots; ++i) {
      const int slot = (start + i) % slots;
      if (slot < link_slots && slot % vcs_ == high_vc_) continue;
      if (try_slot(slot)) {
        moved = true;
        rr_[node] = static_cast<uint8_t>((slot + 1) % slots);
      }
    }
  }
  if (wait_until != kNever) request_scan(node, wait_until);
}

bool TorusNetwork::wants_escape_entry(const Packet& p, int dir) const {
  // Continuing along the same ring in the same VC needs room for this packet only; entering a
  // ring (from injection, another dimension or another VC) needs room for one more full packet.
  return !(p.escaped && p.prev_dir == dir);
}

TorusNetwork::Outcome TorusNetwork::advance(int node, Packet* p, int in_slot,
                                            uint64_t& wait_until) {
  if (fault_eject_early_ && p->src != node) {
    fault_eject_early_ = false;
    return to_reception(node, p, in_slot, wait_until);
  }
  if (p->dest == node) return to_reception(node, p, in_slot, wait_until);
  const uint64_t now = hs::now().value();
  const int16_t need = p->chunks;
  auto link_free = [&](int dir) { return link_free_ps_[node * kDirs + dir] <= now; };
  bool any_tokens = false;
  uint64_t earliest_link = kNever;

  if (p->vc_class == VcClass::HighPriority) {
    const int dir = shape_.dor_dir(node, p->dest);
    const int16_t want = need + (p->prev_dir == dir ? 0 : static_cast<int16_t>(kMaxChunks));
    if (tokens(node, dir, high_vc_) < want) {
      ++token_waits_;
      return Outcome::WaitTokens;
    }
    if (!link_free(dir)) {
      ++link_waits_;
      wait_until = link_free_ps_[node * kDirs + dir];
      return Outcome::WaitLink;
    }
    send(node, p, in_slot, dir, high_vc_);
    return Outcome::Granted;
  }

  const bool adaptive = p->vc_class == VcClass::Dynamic && !p->escaped &&
                        cfg_.routing == Routing::Adaptive && cfg_.dynamic_vcs > 0;
  if (adaptive) {
    std::array<int, kDirs> dirs{};
    const int nd = shape_.minimal_dirs(node, p->dest, dirs);
    int best_dir = -1, best_vc = -1;
    int16_t best_tokens = 0;
    for (int i = 0; i < nd; ++i) {
      for (int vc = 1; vc <= cfg_.dynamic_vcs; ++vc) {
        const int16_t t = tokens(node, dirs[i], vc);
        if (t < need) continue;
        any_tokens = true;
        if (!link_free(dirs[i])) {
          earliest_link = std::min(earliest_link, link_free_ps_[node * kDirs + dirs[i]]);
          continue;
        }
        if (t > best_tokens) {
          best_tokens = t;
          best_dir = dirs[i];
          best_vc = vc;
        }
      }
    }
    if (best_dir >= 0) {
      send(node, p, in_slot, best_dir, best_vc);
      return Outcome::Granted;
    }
  }
  // The bubble escape VC, dimension order.
  int dir = shape_.dor_dir(node, p->dest);
  if (fault_misroute_ && p->src == node) dir = opposite(dir);
  const int16_t want = need + (wants_escape_entry(*p, dir) ? static_cast<int16_t>(kMaxChunks) : 0);
  if (tokens(node, dir, 0) >= want) {
    if (link_free(dir)) {
      if (p->src == node) fault_misroute_ = false;
      send(node, p, in_slot, dir, 0);
      return Outcome::Granted;
    }
    any_tokens = true;
    earliest_link = std::min(earliest_link, link_free_ps_[node * kDirs + dir]);
  }
  if (any_tokens) {
    ++link_waits_;
    wait_until = earliest_link;
    return Outcome::WaitLink;
  }
  ++token_waits_;
  return Outcome::WaitTokens;
}

TorusNetwork::Outcome TorusNetwork::to_reception(int node, Packet* p, int in_slot,
                                                 uint64_t& wait_until) {
  const uint64_t now = hs::now().value();
  if (reception_free_ps_[node] > now) {
    wait_until = reception_free_ps_[node];
    return Outcome::WaitLink;
  }
  NodeEndpoint* ep = endpoints_[node];
  if (!ep) {
    CheckRegistry::instance().fail(
        "torus network: every destination node has an endpoint", name(),
        fmt::format("packet {} for node {} which has no endpoint attached", p->id,
                    shape_.name(node)));
    return Outcome::WaitTokens;
  }
  if (!ep->accept(*p)) return Outcome::WaitTokens;  // the endpoint calls reception_ready
  reception_free_ps_[node] = now + rx_ps_[p->chunks];
  // Cut-through: the tail arrives one serialisation after the head, however fast the port.
  const uint64_t done = std::max(now + rx_ps_[p->chunks], p->arrived_ps + ser_ps_[p->chunks]);
  release_input(node, *p, in_slot, done);
  (in_slot < kDirs * vcs_ ? link_input(node, in_slot / vcs_, in_slot % vcs_)
                          : injection(node, in_slot - kDirs * vcs_))
      .pop();
  heap_.post(sc_core::sc_time::from_value(done), Action{Op::Deliver, 0, 0, 0, node, p});
  return Outcome::Granted;
}

void TorusNetwork::release_input(int node, const Packet& p, int in_slot, uint64_t at) {
  if (in_slot >= kDirs * vcs_) {
    heap_.post(sc_core::sc_time::from_value(at),
               Action{Op::InjectionSlotFree, static_cast<int8_t>(in_slot - kDirs * vcs_), 0, 0,
                      node, nullptr});
    return;
  }
  // The buffer belongs to the upstream router's output in the packet's travel direction.
  const int upstream = shape_.neighbour(node, opposite(p.prev_dir));
  heap_.post(sc_core::sc_time::from_value(at + credit_ps_),
             Action{Op::Credit, p.prev_dir, p.vc, p.chunks, upstream, nullptr});
}

void TorusNetwork::send(int node, Packet* p, int in_slot, int dir, int vc) {
  const uint64_t now = hs::now().value();
  const uint64_t ser = ser_ps_[p->chunks];
  link_free_ps_[node * kDirs + dir] = now + ser;
  link_busy_ps_[node * kDirs + dir] += ser;
  tokens(node, dir, vc) -= p->chunks;
  release_input(node, *p, in_slot, now + ser);
  (in_slot < kDirs * vcs_ ? link_input(node, in_slot / vcs_, in_slot % vcs_)
                          : injection(node, in_slot - kDirs * vcs_))
      .pop();
  if (hop_observer_) hop_observer_(*p, node, dir);
  ++hops_;
  wire_bytes_.add(sc_core::sc_time::from_value(now), sc_core::sc_time::from_value(now + ser),
                  cfg_.wire_bytes(p->chunks));
  if (vc == 0) ++escape_hops_;
  ++p->hops;
  p->vc = static_cast<int8_t>(vc);
  p->prev_dir = static_cast<int8_t>(dir);
  p->escaped = p->escaped || vc == 0;
  heap_.post(sc_core::sc_time::from_value(now + hop_ps_),
             Action{Op::Arrive, 0, 0, 0, shape_.neighbour(node, dir), p});
}

}  // namespace hs::torus
