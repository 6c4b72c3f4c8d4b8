// Host-initiated DMA transfers through the SLMPM (registration cache + remote GET by the
// accelerator's DMA engine). Host core a puts `transfers` buffers, cycling over `buffers`
// host buffers, with up to `window` transfers in flight; accelerator a's PPE serves them.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/registration_cache.h"

namespace hs::fw::transfer_demo {

constexpr uint64_t kHostBuffers = 0x2000'0000;  // host DRAM
constexpr uint64_t kAccReceive = 0x2000'0000;   // accelerator DRAM: one slot per buffer
constexpr uint64_t kAccRequests = 0x5200'0000;  // accelerator DRAM: DMA request area

struct Config {
  int accelerator = 0;
  uint32_t segments = 16;
  uint64_t transfers = 1000;
  uint32_t buffers = 4;
  uint32_t buffer_bytes = 64 * 1024;
  uint32_t window = 1;
  uint64_t buffer(uint32_t b) const { return kHostBuffers + uint64_t{b} * stride(); }
  uint64_t slot(uint32_t b) const { return kAccReceive + uint64_t{b} * stride(); }
  uint64_t stride() const { return (uint64_t{buffer_bytes} + 0xFFFF) & ~uint64_t{0xFFFF}; }
};

struct Results {
  double elapsed_us = 0;
  uint64_t retries = 0;  // puts refused (cache full of buffers in use) and retried later
  bool finished = false;
};

// `cache` null: the no-cache baseline.
void host_program(Hal& hal, const Config& cfg, os::OsModel& os, slmpm::RegistrationCache* cache,
                  Results& out);
void accelerator_program(Hal& hal, const Config& cfg);

}  // namespace hs::fw::transfer_demo
