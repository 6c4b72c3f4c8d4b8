#include "sw/apps/cell_micro.h"

#include <algorithm>

#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spe_mmio.h"
#include "sw/hal/spu.h"

namespace hs::fw::cell_micro {

namespace amap = hybrid::amap;

std::vector<uint64_t> dma_latency(Hal& hal, const Latency& cfg) {
  Phase p(hal, cfg.put ? "PUT latency" : "GET latency");
  std::vector<uint64_t> cycles;
  const uint64_t steps = std::max<uint64_t>(1, cfg.span / std::max<uint32_t>(cfg.bytes, 1));
  for (int i = 0; i < cfg.iterations; ++i) {
    const uint64_t ea = cfg.ea + (static_cast<uint64_t>(i) % steps) * cfg.bytes;
    const auto lsa = static_cast<uint32_t>(ea & 15);  // a small transfer's quadword offset
    const uint64_t t0 = hal.cycles();
    mfc::command(hal, cfg.put ? mfc::op::kPut : mfc::op::kGet, lsa, ea, cfg.bytes, 0);
    mfc::wait_tags(hal, 1);
    cycles.push_back(hal.cycles() - t0);
  }
  return cycles;
}

uint64_t double_buffered_get(Hal& hal, const Stream& cfg) {
  Phase p(hal, "double-buffered stream");
  const uint64_t t0 = hal.cycles();
  const uint32_t buf[2] = {0, cfg.buffer};
  auto get = [&](uint64_t off, int b) {
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(cfg.buffer, cfg.bytes - off));
    mfc::get_large(hal, buf[b], cfg.ea + off, n, static_cast<uint32_t>(b));
  };
  if (cfg.bytes > 0) get(0, 0);
  int b = 0;
  for (uint64_t off = 0; off < cfg.bytes; off += cfg.buffer, b ^= 1) {
    if (off + cfg.buffer < cfg.bytes) get(off + cfg.buffer, b ^ 1);  // the next block, meanwhile
    mfc::wait_tags(hal, 1u << b);
    const uint64_t n = std::min<uint64_t>(cfg.buffer, cfg.bytes - off);
    hal.compute(static_cast<uint64_t>(static_cast<double>(n) * cfg.compute_cycles_per_byte));
  }
  return hal.cycles() - t0;
}

void mailbox_echo(Hal& hal, int rounds) {
  Phase p(hal, "mailbox echo");
  for (int i = 0; i < rounds; ++i) {
    spu::write(hal, spu::ch::kWrOutMbox, spu::read(hal, spu::ch::kRdInMbox) + 1);
  }
}

std::vector<uint64_t> mailbox_round_trips(Hal& hal, int spe, int rounds) {
  Phase p(hal, "mailbox ping-pong");
  const spe_mmio::Spe s{0, spe};
  std::vector<uint64_t> cycles;
  uint32_t v = 0;
  for (int i = 0; i < rounds; ++i) {
    const uint64_t t0 = hal.cycles();
    spe_mmio::write_in_mbox(hal, s, v);
    const uint32_t got = spe_mmio::wait_out_mbox(hal, s);
    cycles.push_back(hal.cycles() - t0);
    hal.check(got == v + 1, "cell_mailbox: every answer is the question plus one",
              "SPE " + std::to_string(spe) + " answered " + std::to_string(got) + " to " +
                  std::to_string(v));
    v = got;
  }
  return cycles;
}

uint64_t atomic_increments(Hal& hal, uint64_t counter, uint32_t lsa, int increments) {
  Phase p(hal, "atomic increments");
  uint64_t failed = 0;
  for (int i = 0; i < increments; ++i) {
    for (;;) {
      mfc::getllar(hal, lsa, counter);
      const auto v = hal.load<uint32_t>(amap::kSpeLocalStore + lsa);
      hal.store<uint32_t>(amap::kSpeLocalStore + lsa, v + 1);
      if (mfc::putllc(hal, lsa, counter)) break;
      ++failed;
    }
  }
  return failed;
}

}  // namespace hs::fw::cell_micro
