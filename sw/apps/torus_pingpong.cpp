#include "sw/apps/torus_pingpong.h"

namespace hs::fw::pingpong {

namespace {
uint32_t posted_bytes(const Config& cfg) {
  return cfg.recv_bytes ? cfg.recv_bytes : cfg.bytes;
}
}  // namespace

void node_a(Hal& hal, const Config& cfg, const dcmf::MessengerConfig& mcfg,
            const hs::torus::TorusShape& shape, Results& out) {
  dcmf::Messenger m(hal, mcfg, shape, cfg.a);
  m.init();
  for (int i = 0; i < cfg.warmup + cfg.iterations; ++i) {
    Phase phase(hal, "round trip");
    const uint64_t t0 = hal.cycles();
    const int r = m.post_recv(cfg.b, 2 * i + 1, cfg.recv_buf, posted_bytes(cfg));
    const int s = m.send(cfg.b, cfg.send_buf, cfg.bytes, cfg.protocol, 2 * i);
    m.wait_send(s);
    m.wait_recv(r);
    if (i >= cfg.warmup) out.round_trip_cycles.push_back(hal.cycles() - t0);
  }
  out.a_bytes_copied = m.bytes_copied();
}

void node_b(Hal& hal, const Config& cfg, const dcmf::MessengerConfig& mcfg,
            const hs::torus::TorusShape& shape, Results& out) {
  dcmf::Messenger m(hal, mcfg, shape, cfg.b);
  m.init();
  for (int i = 0; i < cfg.warmup + cfg.iterations; ++i) {
    const int r = m.post_recv(cfg.a, 2 * i, cfg.recv_buf, posted_bytes(cfg));
    out.last_at_b = m.wait_recv(r);
    const int s = m.send(cfg.a, cfg.send_buf, cfg.bytes, cfg.protocol, 2 * i + 1);
    m.wait_send(s);
  }
  out.b_bytes_copied = m.bytes_copied();
}

}  // namespace hs::fw::pingpong
