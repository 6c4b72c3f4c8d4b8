#include "sw/apps/mirror_demo.h"

#include <fmt/format.h>
#include <algorithm>
#include <deque>
#include <random>

namespace hs::fw::mirror {

using slmpm::Packet;

void side_program(Hal& hal, const Config& cfg, Results& out) {
  Phase phase(hal, "mirror values");
  slmpm::RingWriter writer(hal, cfg.outbound, cfg.mode);
  slmpm::RingReader reader(hal, cfg.inbound, cfg.mode, cfg.publish, cfg.threshold);
  std::mt19937_64 rng(cfg.seed);
  std::exponential_distribution<double> gap(
      1.0 / static_cast<double>(std::max<uint64_t>(1, cfg.gap_cycles)));
  std::deque<Packet> pending;
  uint64_t generated = 0;
  uint64_t next_update = hal.cycles() + static_cast<uint64_t>(gap(rng));
  uint64_t last_progress = hal.cycles();

  auto apply = [&](const Packet& p) {
    hal.store(cfg.mirror + uint64_t{p.variable} * sizeof p.value, p.value, p.length);
    const double now_ps = static_cast<double>(hal.cycles()) / hal.clock_hz() * 1e12;
    const double latency_ns = (now_ps - static_cast<double>(p.sent_ps)) / 1e3;
    out.latency_sum_ns += latency_ns;
    out.latency_max_ns = std::max(out.latency_max_ns, latency_ns);
  };

  auto poll = [&] {
    const size_t n = reader.poll(apply);
    if (n > 0) ++out.read_batches;
    return n;
  };

  while (writer.written() < cfg.updates || reader.read() < cfg.peer_updates) {
    bool progress = false;
    if (generated < cfg.updates && hal.cycles() >= next_update) {
      // An application store to a tracked value; the SLMPM is notified and queues a packet.
      Packet p;
      p.variable = static_cast<uint32_t>(rng() % cfg.variables);
      p.length = sizeof p.value;
      for (auto& b : p.value) b = static_cast<uint8_t>(rng());
      hal.store(cfg.source + uint64_t{p.variable} * sizeof p.value, p.value, p.length);
      pending.push_back(p);
      ++generated;
      next_update = hal.cycles() + static_cast<uint64_t>(gap(rng));
      progress = true;
    }
    if (!pending.empty()) {
      if (writer.flush(pending) > 0) {
        progress = true;
      } else {
        ++out.ring_full_polls;  // the writer waits only when the ring is full
      }
    }
    if (poll() > 0) progress = true;
    if (progress) {
      last_progress = hal.cycles();
    } else {
      if (hal.cycles() - last_progress > cfg.stall_cycles) {
        hal.fail(
            fmt::format("mirrored-counter ring stalled: no progress for {} cycles (written "
                        "{}/{}, read {}/{}, {} packets waiting for room)",
                        cfg.stall_cycles, writer.written(), cfg.updates, reader.read(),
                        cfg.peer_updates, pending.size()));
      }
      hal.compute(cfg.poll_cycles);
    }
  }
  // Traffic has stopped: one more poll lets a lazy reader publish what it has not yet.
  poll();
  out.sent = writer.written();
  out.received = reader.read();
  out.publications = reader.publications();
  out.remote_reads = writer.remote_reads() + reader.remote_reads();
  out.finished = true;
}

}  // namespace hs::fw::mirror
