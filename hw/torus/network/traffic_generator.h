// Synthetic traffic for network studies: at every node a Poisson source of fixed-size packets
// with destinations drawn from a traffic pattern (traffic_patterns.h),
// attached at the node's injection and reception ports in place of the DMA engine. Sources
// stop at the end of the run window (no event is left past it) and the network drains;
// accepted throughput and latency are measured over [warmup, end), and over each half of it
// separately: two halves that agree show the window was long enough to be steady. Rates are
// over the part of the window the run reached (tlm/stats/measurement_window.h).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "hw/torus/network/torus_network.h"
#include "hw/torus/network/traffic_patterns.h"
#include "tlm/stats/measurement_window.h"
#include "tlm/stats/statistics.h"

namespace hs::torus {

struct TrafficConfig {
  std::shared_ptr<TrafficPattern> pattern;  // where each packet goes
  double load = 0.5;            // offered wire bytes per node, fraction of the bisection bound
  uint32_t packet_bytes = 256;  // on the wire before framing, a multiple of 32
  double warmup_ns = 2000;
  double end_ns = 20000;
  uint32_t source_queue = 256;  // packets a node's source holds before it stops offering more
  VcClass vc_class = VcClass::Dynamic;
  uint64_t seed = 1;
};

class TrafficGenerator : public NetworkTimer {
 public:
  TrafficGenerator(TorusNetwork& net, const TrafficConfig& cfg);

  // The measurement window, [warmup, end).
  const MeasurementWindow& window() const { return window_; }
  // Figures over the part of the measurement window reached by now.
  double offered_per_node() const;   // wire bytes per second per node
  double accepted_per_node() const;  // wire bytes per second per node
  double mean_latency_ns() const;
  double percentile_latency_ns(double q) const;
  // The same over the first (half 0) or second (half 1) half of the window (latency: of the
  // packets created in that half). Past saturation that latency keeps growing while the
  // queues at the sources fill (injection FIFOs, then source queues), so it is split too, into
  // three parts, each the mean over the packets delivered in the half: transit (the first
  // link's grant to delivery), steady once the network is; the wait in the injection FIFO; and
  // the wait in the source queue before it. Network latency, as the network's statistics
  // define it (injection FIFO to delivery), is transit plus the injection FIFO wait.
  double accepted_per_node_half(int half) const;
  double mean_latency_half_ns(int half) const;
  double mean_network_latency_half_ns(int half) const;
  double mean_transit_latency_half_ns(int half) const;
  double mean_injection_wait_half_ns(int half) const;
  double mean_source_queue_half_ns(int half) const;
  uint64_t generated() const { return generated_; }
  uint64_t refused_at_source() const { return refused_; }
  uint64_t delivered() const { return delivered_; }
  uint64_t misdelivered() const { return misdelivered_; }

  void on_timer(int node) override;
  // A parallel run: the sources of this process's routers only run here; each partition's
  // tallies and latencies are added to the reporting process's at the end.
  Bytes save_partition() const;
  void merge_partition(const Bytes& b);

 private:
  struct Port : NodeEndpoint {
    TrafficGenerator* gen;
    int node;
    bool accept(const Packet&) override { return true; }
    void deliver(Packet* p) override { gen->received(node, p); }
    void injection_ready(int) override { gen->drain(node); }
  };
  struct Source {
    std::mt19937_64 rng;
    std::deque<Packet*> queue;
    int next_queue = 0;
  };
  void drain(int node);
  void received(int node, Packet* p);
  bool sends(int node) const;

  TorusNetwork& net_;
  TrafficConfig cfg_;
  uint32_t chunks_;
  double mean_gap_ps_;
  // The ports and sources of this process's nodes (a parallel run builds no other
  // partition's: each source holds a 5 KB random generator), and each node's index among
  // them (-1: another's).
  std::vector<Port> ports_;
  std::vector<Source> sources_;
  std::vector<int32_t> source_of_;
  Source& source(int node) { return sources_[static_cast<size_t>(source_of_[node])]; }
  MeasurementWindow window_;
  uint64_t generated_ = 0, refused_ = 0, delivered_ = 0, misdelivered_ = 0;
  // Sums are whole picoseconds: exact, so the same however the deliveries are ordered.
  uint64_t window_bytes_ = 0;
  std::array<uint64_t, 2> half_bytes_{}, half_latency_count_{}, half_delivered_{};
  std::array<uint64_t, 2> half_latency_sum_ps_{};
  // Over the packets delivered in each half: transit, injection FIFO and source queue waits.
  std::array<uint64_t, 2> half_transit_sum_ps_{}, half_injection_wait_sum_ps_{},
      half_source_queue_sum_ps_{};
  int active_nodes_ = 0;
  uint64_t latency_sum_ps_ = 0;
  std::vector<float> latencies_ns_;  // packets created in the window
};

}  // namespace hs::torus
