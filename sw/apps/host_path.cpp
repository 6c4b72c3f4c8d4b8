#include "sw/apps/host_path.h"

#include <algorithm>

#include "hw/hybrid/address_map.h"
#include "sw/hal/dma.h"

namespace hs::fw::host_path {

namespace amap = hybrid::amap;

namespace {
double ns_of(Hal& hal, uint64_t cycles) {
  return static_cast<double>(cycles) * 1e9 / hal.clock_hz();
}
}  // namespace

void host_program(Hal& hal, const Config& cfg, HostResults& out) {
  const uint64_t acc = amap::acc_via_pcie(cfg.accelerator, 0);
  {
    Phase p(hal, "posted writes into accelerator memory");
    for (int i = 0; i < cfg.samples; ++i) {
      const uint64_t value = 0x5A5A0000u + static_cast<uint64_t>(i);
      out.write_issue_ps.push_back(
          static_cast<uint64_t>(static_cast<double>(hal.cycles()) * 1e12 / hal.clock_hz()));
      hal.store(acc + kAccSamples + 64 * static_cast<uint64_t>(i), value);
      hal.compute(cfg.gap_cycles);
    }
  }
  {
    Phase p(hal, "reads of accelerator memory");
    for (int i = 0; i < cfg.samples; ++i) {
      const uint64_t t0 = hal.cycles();
      const auto v = hal.load<uint64_t>(acc + kAccSamples + 64 * static_cast<uint64_t>(i));
      out.read_ns.push_back(ns_of(hal, hal.cycles() - t0));
      hal.check(v == 0x5A5A0000u + static_cast<uint64_t>(i),
                "host path: reads return what was written",
                "a sample read back differs from the value written");
      hal.compute(cfg.gap_cycles);
    }
  }
  hal.store<uint64_t>(acc + kAccFlag, 1);  // the PPE may start its copies
  out.done = true;
}

void ppe_program(Hal& hal, const Config& cfg, PpeResults& out) {
  while (hal.load<uint64_t>(kAccFlag) == 0) hal.compute(2000);
  const uint64_t host = amap::host_via_pcie(0);
  const uint64_t engine = amap::kAccDmaEngine;
  auto timed_copy = [&](uint64_t src, uint64_t dst, uint32_t request_no, const char* phase) {
    Phase p(hal, phase);
    std::vector<hs::dma::Descriptor> list;
    for (uint64_t off = 0; off < cfg.bytes;) {
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(cfg.bytes - off, 1u << 30));
      list.push_back(dma::copy(src + off, dst + off, n));
      off += n;
    }
    const uint64_t at = kAccRequest + 0x1000 * request_no;
    dma::write_request(hal, at, list);
    const uint64_t t0 = hal.cycles();
    dma::submit(hal, engine, at);
    dma::wait_completed(hal, engine, request_no + 1, 200);
    return ns_of(hal, hal.cycles() - t0);
  };
  out.to_cell_ns = timed_copy(host + kHostSource, kAccCopy, 0, "DMA host to Cell");
  out.to_host_ns = timed_copy(kAccCopy, host + kHostCopy, 1, "DMA Cell to host");
  out.done = true;
}

}  // namespace hs::fw::host_path
