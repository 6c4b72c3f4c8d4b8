// The torus network: one router per node with six bidirectional links and injection and
// reception ports. Virtual cut-through: a packet's head may leave a router as soon as the
// output link is free and the next router's virtual channel has buffer tokens for the whole
// packet. Virtual channels: a bubble escape VC (dimension order; entering a ring needs room
// for two full packets, continuing along it room for one, which keeps every ring from filling
// and so the network deadlock free), dynamic VCs (adaptive routing, escaping to the bubble VC
// only when no dynamic VC of any minimal direction has tokens), and a high-priority VC whose
// packets every output serves first. Timing and the definition of latency:
// network_config.h.
//
// Three named policies decide (routing/): the routing function (candidate outputs), the
// output selection (which free output an adaptive packet takes) and the output arbiter (which
// eligible packet an output serves, with a starvation bound).
//
// Event driven, output by output: a packet at the head of an input posts a request on each
// output it may take, and an output arbitrates only when something that can change its answer
// happens: its link frees, tokens return on one of its VCs, a new request arrives, or (the
// reception port) the endpoint makes room. A blocked packet costs nothing until then.
//
// All routers share one event heap (see tlm/timing/event_heap.h), so a 4096-node machine costs
// no more SystemC processes than a 2-node one. Every action takes its place in the order of
// same-time actions from the router that posts it (tlm/timing/timeline.h): a router's
// own sequence, never a machine-wide count, so the order depends on no other router. Routers
// touch only their own state at the current time; what one does to a neighbour is a timed
// message, as on the wire: a packet's head arrives a wire (and router) latency after its grant,
// a buffer's tokens return a token latency after the tail left. Each router draws its output
// selections from its own random stream, each link numbers its traversals for CRC errors, and
// each source numbers its packets, all from the run's seed and the coordinates.
//
// Partitioned (a parallel run, docs/parallel.md): a process drives only the routers of its
// partition (the constructor's `partition`). A packet head or a token return for a router
// across the cut is
// a cut message: it waits in the outbox of that router's partition, keyed with the place its
// sender gave it, and is posted there with that key at the end of the window; since every such
// message lands at least lookahead_ps() after it was sent, a window no longer than that
// never misses one. Timers run in every process (a link-load snapshot reads the process's own
// links).
//
// Memory follows the partition: every per-router, per-link and per-output array (input FIFOs,
// requests, tokens, link times, requesters, random streams, ...) holds this process's own
// routers only, indexed by own(node), the partition's dense index. No halo is kept: a router
// reads and writes only its own state, and everything it does to a neighbour across the cut
// travels as a cut message, so no other router's state is ever needed (kept_routers() says
// how many routers a process holds, for the test that proves it). What spans the machine is
// the partition's node-to-owner map (8 bytes a node) and, with CRC errors injected, each
// link's traversal count. At the end each partition's figures are added to the reporting
// process's (save_partition, merge_partition): its links' busy times land in a table of the
// whole machine's links that only the reporting process holds, and only then. A failed link
// is held by its router's partition (every partition runs every failure, to name them all);
// the standstill watch needs the whole machine, so it is decided on the partitions' sums at
// each window's end.
//
// A token return is an event only if it can wake its output: one with requesters and no
// wake-up posted, i.e. whose last arbitration found no tokens (the only way an output comes to
// wait on them). Otherwise it waits in the receiving router's list and is added when that
// router next arbitrates, or posted if its output starts waiting first. It keeps the place its
// sender gave it either way: timing is that of one event per return.
//
// Deposit bit. A deposit packet's destination lies on a line with its source; it takes the
// deterministic (dimension-order) route, and at each router past its source it first asks for
// the reception port like a packet that ends there (same arbitration, port rate and endpoint
// back-pressure: refused, it waits at the head of its input, blocking that input as a stalled
// hardware router would). When the port takes the copy, the packet asks for its next link, so
// an unblocked deposit packet leaves in the same instant it would have without the copy. The
// copies are counted as deposited_copies, not as deliveries.
//
// Link faults (network_config.h, link_faults.h). A CRC error holds the link for the corrupted
// copy, the turnaround and the retransmission; the packet takes its downstream buffer tokens
// once (the dropped copy's room is freed when its CRC fails and taken again by the good copy)
// and leaves its input when its first copy's tail has left (the sender's retransmission buffer
// keeps it; the link is held while a retransmission is pending, so that buffer never holds
// more than a round trip's packets). A failed link is never free again: its output never
// arbitrates, adaptive packets take their other minimal outputs, and the rest wait. The
// network then watches for the point where it can make no more progress: no event of its own
// pending, packets in flight, and none waiting for an endpoint to take it (nothing outside
// can then move them: injections only take buffer room). It fails the run there, naming the
// failed links and the stuck traffic. With no failed link the watch costs one compare per
// event, and a CRC injector that is off one compare per hop.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "hw/torus/network/network_config.h"
#include "hw/torus/network/network_trace.h"
#include "hw/torus/network/partition.h"
#include "hw/torus/network/routing/output_arbiter.h"
#include "hw/torus/network/routing/output_selection.h"
#include "hw/torus/network/routing/routing_function.h"
#include "hw/torus/network/torus_packet.h"
#include "hw/torus/network/torus_shape.h"
#include "tlm/common/random_stream.h"
#include "tlm/fault/fault_streams.h"
#include "tlm/parallel/bytes.h"
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
  // `partition` (null: the whole machine) must outlive the network.
  TorusNetwork(sc_core::sc_module_name name, const NetworkConfig& cfg,
               const Partition* partition = nullptr);

  const NetworkConfig& config() const { return cfg_; }
  const TorusShape& shape() const { return shape_; }
  int high_priority_queue() const { return cfg_.injection_queues; }
  PacketPool& pool() { return pool_; }

  // Another partition's node has no endpoint here: attaching one is ignored.
  void attach(int node, NodeEndpoint* endpoint) {
    if (local(node)) endpoints_[own(node)] = endpoint;
  }
  // Places a packet (src, dest, chunks, class set) in injection FIFO `queue` of its source
  // node. False if that FIFO is full: wait for injection_ready.
  bool inject(int queue, Packet* p);
  bool injection_full(int node, int queue) const {
    return inj_held_[own(node) * inj_queues_ + queue] >= cfg_.injection_queue_packets;
  }
  // The endpoint at `node` has room for packets it refused.
  void reception_ready(int node) { post_arbitrate(node, kReception); }
  // Calls timer->on_timer(node) at time `at`.
  void schedule(const sc_core::sc_time& at, NetworkTimer* timer, int node);
  void observe_hops(HopObserver o) { hop_observer_ = std::move(o); }
  NetworkTrace& trace() { return trace_; }
  // Test-only faults, one packet each, so tests can prove the routing checkers fire: the next
  // deterministic packet leaving its source takes the link opposite its dimension-order one;
  // the next packet reaching a router past its source is ejected there.
  void fault_misroute_next_packet() { fault_misroute_ = true; }
  void fault_eject_next_packet_early() { fault_eject_early_ = true; }
  // Test-only faults in the buffer-token accounting, so tests can prove the token checks fire:
  // the next token return from a link input is one chunk short (that chunk never comes back);
  // the next packet an output finds short of escape (or high-priority) VC tokens is sent anyway,
  // overrunning the downstream buffer.
  void fault_leak_next_token() { fault_leak_token_ = true; }
  void fault_overrun_next_blocked_packet() { fault_overrun_ = true; }

  uint64_t delivered() const { return delivered_.value; }
  uint64_t deposited_copies() const { return deposited_.value; }
  uint64_t packet_hops() const { return hops_.value; }
  uint64_t in_flight() const { return injected_.value - delivered_.value; }
  // Busy time of the link leaving `node` in `dir` inside [0, t_ps], for t_ps no earlier than the
  // link's last grant (any time up to now). Partitioned: 0 for another partition's link,
  // until the reporting process has merged the partitions' figures.
  uint64_t link_busy_ps(int node, int dir, uint64_t t_ps) const;
  // Buffer tokens currently lent out (0 once the network has drained), and the fewest free
  // tokens any VC ever had (never negative).
  int64_t tokens_outstanding() const;
  int min_tokens_seen() const { return min_tokens_; }
  // Packets still in the network, by name (at most `max`): where each waits and for what.
  std::vector<std::string> undelivered(size_t max) const;
  // Link faults. CRC errors on the link leaving `node` in `dir` (partitioned: as
  // link_busy_ps); whether it has failed; the traffic stuck when the network stopped making
  // progress behind a failed link (empty until then), by source, destination and queue.
  uint64_t crc_errors(int node, int dir) const;
  bool link_failed(int node, int dir) const;
  const std::vector<StuckTraffic>& stuck_traffic() const { return stuck_; }

  // Parallel runs (see above). Whether `node`'s router is this process's, and how many routers
  // this process keeps state for (its own: no halo).
  bool local(int node) const { return !part_ || part_->index(node) >= 0; }
  size_t kept_routers() const { return routers_; }
  // What this process's arrays hold, read off their sizes (the test that proves memory follows
  // the partition): the most routers any per-router array covers (per-link, per-output and
  // per-VC arrays counted in routers), and the links the per-link arrays cover.
  struct Footprint {
    size_t routers = 0, links = 0;
  };
  Footprint footprint() const;
  // This process's routers, numbered densely in node order: router r is router_node(r), and a
  // local node's router is router_index(node).
  int router_node(size_t r) const { return node_of(r); }
  size_t router_index(int node) const { return own(node); }
  // The shortest delay of a message across a cut: a window may be no longer.
  uint64_t lookahead_ps() const { return std::min(wire_ps_, credit_ps_); }
  // The cut messages sent since the last call, one buffer per neighbour partition (in the
  // order of Partition::neighbours()); and those a neighbour sent, posted here.
  std::vector<Bytes> take_cut_messages();
  void receive_cut_messages(const Bytes& in);
  uint64_t cut_messages_sent() const { return cut_sent_; }
  // This partition's share of the figures, and another partition's added to this one's.
  Bytes save_partition() const;
  void merge_partition(const Bytes& b);
  // With failed links, the standstill watch on the whole machine (no partition can tell
  // alone): this partition's terms at a window's end (packets injected and delivered here,
  // actions pending, packets waiting for an endpoint), and whether their sums over every
  // partition show the network standing still; then, at the reporting partition once every
  // partition's figures are merged, the failure naming the stuck traffic.
  std::vector<uint64_t> window_sums() const;
  bool standstill(const std::vector<uint64_t>& sums);
  void check_progress_merged();

 private:
  static constexpr int kReception = kDirs;  // output index of the reception port
  static constexpr int kOutputs = kDirs + 1;
  static constexpr uint64_t kFailed = UINT64_MAX;  // a failed link's link_free_ps_
  enum class Op : uint8_t {
    Arrive,
    Ready,
    Credit,
    OutputFree,
    InjectionSlotFree,
    Deliver,
    Arbitrate,
    Timer,
    LinkFail,  // link `a` of `node` fails
    Watch      // a request found a failed link: look for a standstill once events run out
  };
  struct Action {  // 16 bytes: the heap moves many
    Op op;
    int8_t a;  // direction, output or queue
    int8_t vc;
    uint8_t chunks;
    int32_t node;
    void* ptr;  // Packet* or NetworkTimer*
  };
  // Where a waiting packet sits: a link input (travel direction x VC) or an injection FIFO.
  // A ring of a power of two entries (indices wrap with a mask), the first four inline: a
  // FIFO and the packets it holds mostly share one cache line.
  struct alignas(64) Fifo {
    Packet* small[4];
    std::vector<Packet*> big;  // the ring once more than four wait
    uint32_t head = 0, count = 0;
    Packet* const* ring() const { return big.empty() ? small : big.data(); }
    uint32_t mask() const { return big.empty() ? 3 : static_cast<uint32_t>(big.size()) - 1; }
    Packet* front() const { return count ? ring()[head] : nullptr; }
    Packet* at(uint32_t i) const { return ring()[(head + i) & mask()]; }
    void push(Packet* p);
    void pop() {
      head = (head + 1) & mask();
      --count;
    }
  };
  // What the head packet of an input asks for.
  struct Request {
    uint8_t outputs = 0;    // bit o: requesting output o (kReception included)
    uint8_t dynamic = 0;    // bit d: direction d on a dynamic VC
    int8_t escape = -1;     // escape (or high-priority) VC direction
    uint64_t since_ps = 0;  // when it became a request (its wait at this router)
  };
  // One way an eligible packet could leave by an output.
  struct Choice {
    int8_t vc;
    bool entering;  // enters an escape or high-priority ring (the bubble rule applied)
  };

  void handle(const Action& a);
  int slot_of_link(int dir, int vc) const { return dir * vcs_ + vc; }
  int slot_of_injection(int q) const { return kDirs * vcs_ + q; }
  const Fifo& router_fifo(size_t r, int slot) const;  // input `slot` of own router r
  Fifo& router_fifo(size_t r, int slot) {
    return const_cast<Fifo&>(std::as_const(*this).router_fifo(r, slot));
  }
  Fifo& slot_fifo(int node, int slot) { return router_fifo(own(node), slot); }
  const Fifo& slot_fifo(int node, int slot) const { return router_fifo(own(node), slot); }
  std::string slot_name(int slot) const;  // "input +x VC escape", "injection FIFO 2"
  // The head of input `slot` changed (or became ready): post its requests.
  void request(int node, int slot);
  // Input `slot` has a new head: request now, or once an injection FIFO has all of it.
  void next_head(int node, int slot);
  // True if the output is busy (a wake-up is posted instead).
  bool post_arbitrate(int node, int out);
  // Makes sure `out` arbitrates again when its link (or reception port) frees.
  void wake_when_free(int node, int out, uint64_t free_ps);
  void arbitrate(int node, int out);
  void arbitrate_reception(int node);
  // How packet `p` (request `r`) could take link `dir` now: the VC, or vc -1 if not eligible.
  // `blocked_entering` is set when only the bubble rule's extra packet of room is missing.
  Choice choose_vc(int node, const Packet& p, const Request& r, int dir,
                   bool& blocked_entering) const;
  bool has_dynamic_tokens(int node, const Packet& p, const Request& r) const;
  void grant(int node, int slot, int dir, int vc);
  // Asks the cache for what a packet's arrival at input (dir, vc) of `node` will read.
  void prefetch_arrival(int node, int dir, int vc) const;
  // Corrupted copies of `p` leave on link `dir` of `node` from `start`, each followed by the
  // turnaround, until one passes its CRC check: returns when that one starts.
  uint64_t retransmit(int node, int dir, const Packet& p, uint64_t start, uint64_t ser);
  void fail_link(int node, int dir);
  // No event pending: if packets are stuck behind a failed link, fails the run listing them.
  void check_progress();
  // Whether a packet waits for one of this partition's endpoints to make room.
  bool reception_waits() const;
  // Fails the run: no more progress, with `stuck` left in the network.
  void report_standstill(std::vector<StuckTraffic> stuck);
  std::vector<StuckTraffic> collect_stuck() const;
  // The overrun fault: grants a requester of `out` short of escape tokens; false if none is.
  bool overrun(int node, int out);
  void withdraw(int node, int slot);
  // The reception port took a copy of the deposit packet at the head of `slot` (its tail in
  // at `done`): deliver the copy, and let the packet ask for its next link.
  void deposit_copy(int node, int slot, uint64_t done);
  void note_wait(int node, int slot);  // the granted head's wait at this router, for the max
  // The packet's tail leaves input `in_slot` of `node` at `at`: return its buffer tokens.
  void release_input(int node, const Packet& p, int in_slot, uint64_t at);
  // A token return from downstream reaches `node`'s list (or is posted, if its output waits).
  struct LazyCredit;
  void receive_credit(int node, const LazyCredit& c);
  // Output `out` of `node` waits for tokens: post its token returns still to land.
  void post_lazy_credits(int node, int out);
  // Posts `a` at `at` in `node`'s router's place in the order.
  void post(uint64_t at, int node, const Action& a) { heap_.post(at, origins_[own(node)], a); }
  // The same for a timer or link failure, which every process runs, for any router.
  void post_any(uint64_t at, int node, const Action& a) {
    if (local(node)) {
      post(at, node, a);
    } else {
      post_foreign(at, node, a);
    }
  }
  void post_foreign(uint64_t at, int node, const Action& a);
  // Adds the token returns of `node` that have landed (before it reads its tokens).
  void settle_credits(int node);
  int16_t& tokens(int node, int dir, int vc) { return tokens_[link_index(node, dir) * vcs_ + vc]; }
  int16_t tokens(int node, int dir, int vc) const {
    return tokens_[link_index(node, dir) * vcs_ + vc];
  }
  int neighbour(int node, int dir) const { return neighbours_[link_index(node, dir)]; }
  // A router of this partition among its own: every per-router array holds those only.
  size_t own(int node) const {
    return part_ ? static_cast<size_t>(part_->index(node)) : static_cast<size_t>(node);
  }
  int node_of(size_t router) const {
    return part_ ? part_->local_nodes()[router] : static_cast<int>(router);
  }
  // A link or an output of one of this partition's routers, in the per-link (per-output)
  // arrays; and a link's number in the whole machine (node * kDirs + dir).
  size_t link_index(int node, int dir) const {
    return own(node) * kDirs + static_cast<size_t>(dir);
  }
  size_t output_index(int node, int out) const {
    return own(node) * kOutputs + static_cast<size_t>(out);
  }
  static size_t machine_link(int node, int dir) {
    return static_cast<size_t>(node) * kDirs + static_cast<size_t>(dir);
  }
  Fifo& link_input(int node, int dir, int vc) {
    return inputs_[(own(node) * kDirs + static_cast<size_t>(dir)) * vcs_ + vc];
  }
  Fifo& injection(int node, int q) { return injections_[own(node) * inj_queues_ + q]; }
  Request& request_at(int node, int slot) { return requests_[own(node) * slots_ + slot]; }
  const Request& request_at(int node, int slot) const {
    return requests_[own(node) * slots_ + slot];
  }
  // Busy time of this partition's link `l` (link_index(node, dir)) inside [0, t_ps]; the busiest
  // link's share, and every link's busy time added (the merged partitions' links included).
  uint64_t link_busy_within(size_t l, uint64_t t_ps) const;
  // When link `l` frees; for a failed link, when its last packet left it.
  uint64_t free_before(size_t l) const;
  double busiest_link_utilisation(uint64_t t_ps) const;
  uint64_t busy_sum_within(uint64_t t_ps) const;

  NetworkConfig cfg_;
  TorusShape shape_;
  int vcs_;  // escape (0), dynamic (1..D), high priority (D+1)
  int high_vc_;
  int inj_queues_;  // normal + 1 high priority
  int slots_;       // router inputs per node: link input VCs, then injection FIFOs (<= 64)
  const RoutingFunction& routing_;
  const OutputSelection& selection_;
  const OutputArbiter& arbiter_;
  uint64_t wire_ps_, router_ps_, credit_ps_, fill_ps_, starvation_ps_;
  int16_t entry_extra_;              // the bubble rule's extra room for entering a ring (chunks)
  int16_t dynamic_injection_extra_;  // room an injected packet leaves free on a dynamic VC
  int16_t injection_extra_;  // the escape VC: for a packet from an injection FIFO, reserve included
  std::array<uint64_t, kMaxChunks + 1> ser_ps_{}, rx_ps_{};

  const Partition* part_;            // null: the whole machine
  size_t routers_;                   // routers kept: the partition's own
  std::vector<int32_t> neighbours_;  // link_index(node, dir): shape_.neighbour, looked up per hop
  std::vector<NodeEndpoint*> endpoints_;
  std::vector<Fifo> inputs_, injections_;
  std::vector<uint32_t> inj_held_;      // packets in each injection FIFO until their tail leaves
  std::vector<uint64_t> fill_done_ps_;  // each injection FIFO's write port is busy until
  std::vector<int16_t> tokens_;
  struct LazyCredit {  // a token return not (yet) posted as an event
    Order key;         // when it lands and its place in the order (its sender's)
    int8_t dir, vc;    // the receiving router's output and VC
    uint8_t chunks;
  };
  struct LazyCredits {  // a node's, unordered; what they cover, to skip them cheaply
    std::vector<LazyCredit> list;
    uint64_t earliest = UINT64_MAX;  // no return lands before
    uint8_t dirs = 0;                // bit d: a return for output d may be listed
    void add(const LazyCredit& c) {
      list.push_back(c);
      earliest = std::min(earliest, c.key.at);
      dirs = static_cast<uint8_t>(dirs | 1u << c.dir);
    }
  };
  std::vector<LazyCredits> lazy_credits_;  // per router
  int min_tokens_;
  uint64_t max_transit_wait_ps_ = 0, max_injection_wait_ps_ = 0;
  // Per output (output_index(node, out)): when it frees (links: link_free_ps_), its requesters
  // (bit = input slot), whether a wake-up is posted, round robin.
  std::vector<uint64_t> link_free_ps_, link_busy_ps_, last_grant_ps_, reception_free_ps_;
  std::vector<uint64_t> requesters_;
  std::vector<uint8_t> wake_posted_, rr_;
  std::vector<uint8_t> arb_pending_;  // per router: outputs to arbitrate at the end of the instant
  std::vector<Request> requests_;     // own(node) * slots_ + slot
  std::vector<Origin> origins_;       // per router: its place in the order of same-time actions
  std::vector<RandomStream> selection_rng_;  // per router: its output selections' draws
  std::vector<uint32_t> packets_made_;       // per router: packets its source injected so far
  PacketPool pool_;
  EventHeap<Action> heap_;
  NetworkTrace trace_;  // hooks test trace_.on() first: the one cost when tracing is off
  HopObserver hop_observer_;
  bool fault_misroute_ = false, fault_eject_early_ = false;
  bool fault_leak_token_ = false, fault_overrun_ = false;
  uint64_t credits_sent_ = 0, credit_events_ = 0;  // token returns; those that were events
  // Link faults.
  FaultStreams crc_error_;  // one stream per link of the machine: machine_link(node, dir)
  uint64_t retry_ps_;
  std::vector<uint64_t> link_crc_errors_;  // per link, only when CRC errors are injected
  struct LinkFailure {
    size_t link;                     // machine_link
    uint64_t at_ps, free_before_ps;  // when it failed; when its last packet left it
  };
  std::vector<LinkFailure> failures_;  // links failed so far
  bool watch_;                         // some link fails in this run
  bool watch_posted_ = false;
  std::vector<StuckTraffic> stuck_;
  // A parallel run's watch: every partition's view, merged (check_progress_merged).
  bool standstill_ = false;  // the partitions' sums showed one
  bool merged_any_ = false;
  std::vector<StuckTraffic> merged_stuck_;
  // Partitioned: the outbox of each neighbour partition (outbox_of_[partition]: index in
  // outboxes_, or -1).
  std::vector<int> outbox_of_;
  std::vector<ByteWriter> outboxes_;
  uint64_t cut_sent_ = 0;
  uint64_t foreign_timers_ = 0;  // timers and link failures run for another partition's router
  uint64_t merged_handled_ = 0;  // the other partitions' handled actions (merged)
  std::vector<std::pair<int, Origin>> foreign_origins_;  // other routers': their timers' places
  // The reporting process, once it merged the others: their links (by machine_link; free time
  // with a failed link's last packet in place of kFailed), buffer tokens lent and token returns
  // not yet landed (when, chunks).
  struct MergedLinks {
    std::vector<uint64_t> busy_ps, free_ps, crc_errors;
  };
  std::unique_ptr<MergedLinks> merged_links_;
  int64_t merged_tokens_lent_ = 0;
  std::vector<LazyCredit> merged_lazy_;
  void send_cut(int to_node, const Order& key, uint8_t kind, const void* body, size_t size);

  StatGroup stats_;
  Counter& injected_;
  Counter& delivered_;
  Counter& payload_delivered_;
  ByteFlow& wire_bytes_;
  Counter& hops_;
  Counter& escape_hops_;
  Counter& token_waits_;
  Counter& link_waits_;
  Counter& arbitrations_;
  Counter& starved_grants_;
  Histogram& latency_;
  Histogram& network_latency_;
  Histogram& hop_count_;
  Counter& crc_errors_;
  Counter& deposited_;
  Counter& retransmissions_;
  Counter& retransmitted_bytes_;
  Counter& crc_hold_ps_;
};

}  // namespace hs::torus
