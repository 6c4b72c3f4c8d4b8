#include "hw/torus/network/traffic_generator.h"

#include <algorithm>
#include <cmath>

#include "tlm/kernel/now.h"

namespace hs::torus {

namespace {
double mean_ns(uint64_t sum_ps, uint64_t count) {
  return static_cast<double>(sum_ps) / 1e3 / static_cast<double>(count);
}
}  // namespace

TrafficGenerator::TrafficGenerator(TorusNetwork& net, const TrafficConfig& cfg)
    : net_(net),
      cfg_(cfg),
      chunks_(cfg.packet_bytes / kChunkBytes),
      window_(MeasurementWindow::ns(cfg.warmup_ns, cfg.end_ns)) {
  const int n = net.shape().nodes();
  const double rate = cfg.load * net.config().bisection_bound_per_node();  // wire B/s per node
  mean_gap_ps_ = rate > 0 ? net.config().wire_bytes(chunks_) / rate * 1e12 : 0;
  source_of_.assign(static_cast<size_t>(n), -1);
  int local = 0;
  for (int i = 0; i < n; ++i) {
    if (net.local(i)) source_of_[static_cast<size_t>(i)] = local++;
  }
  sources_.resize(static_cast<size_t>(local));
  ports_.resize(static_cast<size_t>(local));
  for (int i = 0; i < n; ++i) {
    if (net.local(i)) {
      Port& port = ports_[static_cast<size_t>(source_of_[static_cast<size_t>(i)])];
      port.gen = this;
      port.node = i;
      net.attach(i, &port);
    }
    if (!sends(i) || mean_gap_ps_ <= 0) continue;
    ++active_nodes_;
    if (!net.local(i)) continue;  // another partition's source
    Source& s = source(i);
    s.rng.seed(cfg.seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(i));
    std::exponential_distribution<double> gap(1.0 / mean_gap_ps_);
    net.schedule(sc_core::sc_time::from_value(static_cast<uint64_t>(gap(s.rng))), this, i);
  }
}

bool TrafficGenerator::sends(int node) const {
  return net_.shape().nodes() >= 2 && cfg_.pattern->sends(node);
}

void TrafficGenerator::on_timer(int node) {
  const uint64_t now = hs::now().value();
  if (now >= window_.end_ps) return;
  Source& s = source(node);
  const int dest = cfg_.pattern->destination(node, s.rng);
  if (dest >= 0) {
    ++generated_;
    if (s.queue.size() >= cfg_.source_queue) {
      ++refused_;
    } else {
      Packet* p = net_.pool().take();
      p->src = node;
      p->dest = dest;
      p->chunks = static_cast<uint8_t>(chunks_);
      p->kind = PacketKind::Synthetic;
      p->vc_class = cfg_.vc_class;
      p->payload_bytes = static_cast<uint16_t>(cfg_.packet_bytes - net_.config().header_bytes);
      p->created_ps = std::max<uint64_t>(now, 1);
      s.queue.push_back(p);
      drain(node);
    }
  }
  std::exponential_distribution<double> gap(1.0 / mean_gap_ps_);
  const uint64_t next = now + 1 + static_cast<uint64_t>(gap(s.rng));
  // Nothing past the window: the run ends with the network's last delivery, not a timer.
  if (next < window_.end_ps) net_.schedule(sc_core::sc_time::from_value(next), this, node);
}

void TrafficGenerator::drain(int node) {
  Source& s = source(node);
  const int queues = net_.config().injection_queues;
  while (!s.queue.empty()) {
    bool placed = false;
    for (int i = 0; i < queues && !placed; ++i) {
      const int q = (s.next_queue + i) % queues;
      if (net_.inject(q, s.queue.front())) {
        s.next_queue = (q + 1) % queues;
        placed = true;
      }
    }
    if (!placed) return;
    s.queue.pop_front();
  }
}

void TrafficGenerator::received(int node, Packet* p) {
  const uint64_t now = hs::now().value();
  ++delivered_;
  if (p->dest != node) ++misdelivered_;
  const uint64_t mid = window_.half(1).start_ps;
  if (now >= window_.start_ps && now < window_.end_ps) {
    window_bytes_ += net_.config().wire_bytes(p->chunks);
    half_bytes_[now >= mid] += net_.config().wire_bytes(p->chunks);
    half_transit_sum_ps_[now >= mid] += now - p->launched_ps;
    half_injection_wait_sum_ps_[now >= mid] += p->launched_ps - p->injected_ps;
    // (A packet created at time 0 is stamped 1 ps.)
    half_source_queue_sum_ps_[now >= mid] +=
        std::max(p->injected_ps, p->created_ps) - p->created_ps;
    ++half_delivered_[now >= mid];
  }
  if (p->created_ps >= window_.start_ps && p->created_ps < window_.end_ps) {
    const uint64_t latency = now - p->created_ps;
    latencies_ns_.push_back(static_cast<float>(latency / 1e3));
    latency_sum_ps_ += latency;
    half_latency_sum_ps_[p->created_ps >= mid] += latency;
    ++half_latency_count_[p->created_ps >= mid];
  }
  net_.pool().give(p);
}

double TrafficGenerator::offered_per_node() const {
  return mean_gap_ps_ > 0 ? net_.config().wire_bytes(chunks_) / mean_gap_ps_ * 1e12 : 0;
}

double TrafficGenerator::accepted_per_node() const {
  const double window = window_.seconds(hs::now().value());
  return active_nodes_ && window > 0 ? window_bytes_ / window / active_nodes_ : 0;
}

double TrafficGenerator::accepted_per_node_half(int half) const {
  const double window = window_.half(half).seconds(hs::now().value());
  return active_nodes_ && window > 0 ? half_bytes_[half] / window / active_nodes_ : 0;
}

double TrafficGenerator::mean_latency_half_ns(int half) const {
  return half_latency_count_[half] ? mean_ns(half_latency_sum_ps_[half], half_latency_count_[half])
                                   : 0;
}

// Over the packets delivered in the half (the sums' own packets).
double TrafficGenerator::mean_network_latency_half_ns(int half) const {
  return mean_transit_latency_half_ns(half) + mean_injection_wait_half_ns(half);
}

double TrafficGenerator::mean_transit_latency_half_ns(int half) const {
  return half_delivered_[half] ? mean_ns(half_transit_sum_ps_[half], half_delivered_[half]) : 0;
}

double TrafficGenerator::mean_injection_wait_half_ns(int half) const {
  return half_delivered_[half] ? mean_ns(half_injection_wait_sum_ps_[half], half_delivered_[half])
                               : 0;
}

double TrafficGenerator::mean_source_queue_half_ns(int half) const {
  return half_delivered_[half] ? mean_ns(half_source_queue_sum_ps_[half], half_delivered_[half])
                               : 0;
}

double TrafficGenerator::mean_latency_ns() const {
  return latencies_ns_.empty() ? 0 : mean_ns(latency_sum_ps_, latencies_ns_.size());
}

double TrafficGenerator::percentile_latency_ns(double q) const {
  if (latencies_ns_.empty()) return 0;
  std::vector<float> v = latencies_ns_;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return v[k];
}

Bytes TrafficGenerator::save_partition() const {
  ByteWriter w;
  for (uint64_t v :
       {generated_, refused_, delivered_, misdelivered_, window_bytes_, latency_sum_ps_}) {
    w.put(v);
  }
  for (const auto* a :
       {&half_bytes_, &half_latency_count_, &half_delivered_, &half_latency_sum_ps_,
        &half_transit_sum_ps_, &half_injection_wait_sum_ps_, &half_source_queue_sum_ps_}) {
    w.put(*a);
  }
  w.put_vector(latencies_ns_);
  return w.take();
}

void TrafficGenerator::merge_partition(const Bytes& b) {
  ByteReader r(b);
  for (uint64_t* v :
       {&generated_, &refused_, &delivered_, &misdelivered_, &window_bytes_, &latency_sum_ps_}) {
    *v += r.get<uint64_t>();
  }
  for (auto* a :
       {&half_bytes_, &half_latency_count_, &half_delivered_, &half_latency_sum_ps_,
        &half_transit_sum_ps_, &half_injection_wait_sum_ps_, &half_source_queue_sum_ps_}) {
    const auto theirs = r.get<std::array<uint64_t, 2>>();
    for (size_t i = 0; i < 2; ++i) (*a)[i] += theirs[i];
  }
  const auto latencies = r.get_vector<float>();
  latencies_ns_.insert(latencies_ns_.end(), latencies.begin(), latencies.end());
}

}  // namespace hs::torus
