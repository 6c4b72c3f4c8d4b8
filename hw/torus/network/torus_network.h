// The torus network: one router per node with six bidirectional links and injection and
// reception ports. Virtual cut-through: a packet's head may leave a router as soon as the
// output link is free and the next router's virtual channel has buffer tokens for the whole
// packet. Virtual channels: a bubble escape VC (dimension-order routing; a packet may enter a
// ring only if two full packets fit, which keeps every ring from filling and so deadlock-free),
// dynamic VCs (minimal adaptive routing, escaping to the bubble VC when they are full), and a
// high-priority VC served first. Contention, back-pressure and saturation follow from the
// links' occupancy and the tokens.
//
// All routers share one event heap (see tlm/timing/event_heap.h), so a 4096-node machine costs
// no more SystemC processes than a 2-node one.
#pragma once
#include <array>
#include <cstdint>
#include <systemc>
#include <vector>

#include "hw/torus/network/network_config.h"
#include "hw/torus/network/torus_packet.h"
#include "hw/torus/network/torus_shape.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/event_heap.h"

namespace hs::torus {

// What sits at a node's injection and reception ports (the DMA engine, or a traffic generator).
class NodeEndpoint {
 public:
  virtual ~NodeEndpoint() = default;
  // A packet for this node is at the reception port: reserve room for it and return true, or
  // return false (it waits in the router; call TorusNetwork::reception_ready when there is room).
  virtual bool accept(const Packet& p) = 0;
  // The accepted packet's tail has arrived; the endpoint owns it now (give it back to the pool).
  virtual void deliver(Packet* p) = 0;
  // Injection FIFO `queue` has room for another packet.
  virtual void injection_ready(int queue) = 0;
};

// Something that wants to be called back at a time on the network's event heap (traffic
// generators: one callback per generated packet, no process per node).
class NetworkTimer {
 public:
  virtual ~NetworkTimer() = default;
  virtual void on_timer(int node) = 0;
};

// Observes every hop (route checkers, tests).
using HopObserver = std::function<void(const Packet&, int from_node, int dir)>;

class TorusNetwork : public sc_core::sc_module {
 public:
  TorusNetwork(sc_core::sc_module_name name, const NetworkConfig& cfg);

  const NetworkConfig& config() const { return cfg_; }
  const TorusShape& shape() const { return shape_; }
  int high_priority_queue() const { return cfg_.injection_queues; }
  PacketPool& pool() { return pool_; }

  void attach(int node, NodeEndpoint* endpoint) { endpoints_[node] = endpoint; }
  // Places a packet (src, dest, chunks, class set) in injection FIFO `queue` of its source
  // node. False if that FIFO is full: wait for injection_ready.
  bool inject(int queue, Packet* p);
  bool injection_full(int node, int queue) const {
    return inj_held_[node * inj_queues_ + queue] >= cfg_.injection_queue_packets;
  }
  // The endpoint at `node` has room for packets it refused.
  void reception_ready(int node) { request_scan(node, hs::now().value()); }
  // Calls timer->on_timer(node) at time `at`.
  void schedule(const sc_core::sc_time& at, NetworkTimer* timer, int node);
  void observe_hops(HopObserver o) { hop_observer_ = std::move(o); }
  // Test-only faults, one packet each, so tests can prove the routing checkers fire: the next
  // deterministic packet leaving its source takes the link opposite its dimension-order one;
  // the next packet reaching a router past its source is ejected there.
  void fault_misroute_next_packet() { fault_misroute_ = true; }
  void fault_eject_next_packet_early() { fault_eject_early_ = true; }

  uint64_t delivered() const { return delivered_.value; }
  uint64_t packet_hops() const { return hops_.value; }
  uint64_t in_flight() const { return injected_.value - delivered_.value; }
  double link_busy_ns(int node, int dir) const { return link_busy_ps_[node * kDirs + dir] / 1e3; }
  // Busy time of the link leaving `node` in `dir` inside [0, t_ps], for t_ps no earlier than the
  // link's last grant (any time up to now).
  uint64_t link_busy_ps(int node, int dir, uint64_t t_ps) const {
    return link_busy_within(static_cast<size_t>(node) * kDirs + dir, t_ps);
  }

 private:
  enum class Op : uint8_t { Arrive, Credit, InjectionSlotFree, Deliver, Scan, Timer };
  struct Action {
    Op op;
    int8_t a;  // direction or queue
    int8_t vc;
    uint8_t chunks;
    int32_t node;
    void* ptr;  // Packet* or NetworkTimer*
  };
  // Where a waiting packet sits: a link input (travel direction x VC) or an injection FIFO.
  struct Fifo {
    std::vector<Packet*> ring;
    uint32_t head = 0, count = 0;
    Packet* front() const { return count ? ring[head] : nullptr; }
    void push(Packet* p);
    void pop() {
      head = (head + 1) % static_cast<uint32_t>(ring.size());
      --count;
    }
  };
  enum class Outcome { Granted, WaitLink, WaitTokens };

  void handle(const Action& a);
  void request_scan(int node, uint64_t at);
  void scan(int node);
  // Tries to move the head packet of an input on; `wait_until` gets the time a busy link frees.
  Outcome advance(int node, Packet* p, int in_slot, uint64_t& wait_until);
  Outcome to_reception(int node, Packet* p, int in_slot, uint64_t& wait_until);
  void send(int node, Packet* p, int in_slot, int dir, int vc);
  // The packet's tail leaves input `in_slot` of `node` at `at`: return its buffer tokens.
  void release_input(int node, const Packet& p, int in_slot, uint64_t at);
  int16_t& tokens(int node, int dir, int vc) { return tokens_[(node * kDirs + dir) * vcs_ + vc]; }
  Fifo& link_input(int node, int dir, int vc) { return inputs_[(node * kDirs + dir) * vcs_ + vc]; }
  Fifo& injection(int node, int q) { return injections_[node * inj_queues_ + q]; }
  bool wants_escape_entry(const Packet& p, int dir) const;
  // Busy time of link `link` (node * kDirs + dir) inside [0, t_ps]; the busiest link's share.
  uint64_t link_busy_within(size_t link, uint64_t t_ps) const;
  double busiest_link_utilisation(uint64_t t_ps) const;

  NetworkConfig cfg_;
  TorusShape shape_;
  int vcs_;  // escape (0), dynamic (1..D), high priority (D+1)
  int high_vc_;
  int inj_queues_;  // normal + 1 high priority
  uint64_t hop_ps_, credit_ps_;
  std::array<uint64_t, kMaxChunks + 1> ser_ps_{}, rx_ps_{};

  std::vector<NodeEndpoint*> endpoints_;
  std::vector<Fifo> inputs_, injections_;
  std::vector<uint32_t> inj_held_;  // packets in each injection FIFO until their tail leaves
  std::vector<int16_t> tokens_;
  std::vector<uint64_t> link_free_ps_, link_busy_ps_, reception_free_ps_, scan_at_;
  std::vector<uint8_t> rr_;
  PacketPool pool_;
  EventHeap<Action> heap_;
  HopObserver hop_observer_;
  bool fault_misroute_ = false, fault_eject_early_ = false;
  uint64_t next_id_ = 0;

  StatGroup stats_;
  Counter& injected_;
  Counter& delivered_;
  Counter& payload_delivered_;
  ByteFlow& wire_bytes_;
  Counter& hops_;
  Counter& escape_hops_;
  Counter& token_waits_;
  Counter& link_waits_;
  Histogram& latency_;
  Histogram& hop_count_;
};

}  // namespace hs::torus
