// Pin/DMA/unpin traffic on the hybrid node. P, on host core 0, pins `regions` host
// regions and later unpins some; injector applications (host core 1 on the host's DMA engine,
// accelerator 0's PPE on its engine) DMA into random regions meanwhile, or, in the
// "unrelated" pattern, one short transfer into region 0 followed by a long one into region 1
// on the same engine. After each unpin P writes a new pattern into the region (the memory
// is reused); nothing may overwrite it.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/pin_dma_unpin.h"

namespace hs::fw::pdu_demo {

struct Common {
  pdu::ControlBlocks cb;
  pdu::Embodiment embodiment = pdu::Embodiment::A;
  int regions = 2, apps = 2, engines = 2;
  uint64_t region_base = 0x6000'0000, region_stride = 1 << 20, region_bytes = 64 * 1024;
  uint64_t region(int r) const { return region_base + region_stride * static_cast<uint64_t>(r); }
};

struct PConfig {
  Common c;
  pdu::UnpinRule rule = pdu::UnpinRule::Repaired;
  uint64_t unpin_after_cycles = 40'000;
  int unpin_regions = 1;
  uint64_t stall_cycles = 200'000'000;  // an unpin waiting longer fails the run
  uint8_t reuse_byte = 0xEE;
};
struct PResults {
  std::vector<double> unpin_ns;
  bool finished = false;
};

struct InjectorConfig {
  Common c;
  pdu::View view;
  int app = 0, engine = 0;
  uint64_t source = 0;  // engine view
  int injections = 100;
  uint32_t max_bytes = 8192;
  uint64_t max_gap_cycles = 4000;
  uint64_t unrelated_bytes = 0;  // > 0: the "unrelated" pattern instead of random traffic
  uint64_t seed = 1;
};
struct InjectorResults {
  uint64_t issued = 0, rejected = 0;
  bool finished = false;
};

void p_program(Hal& hal, os::OsModel& os, const PConfig& cfg, PResults& out);
void injector_program(Hal& hal, const InjectorConfig& cfg, InjectorResults& out);

}  // namespace hs::fw::pdu_demo
