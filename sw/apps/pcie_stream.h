// Streaming DMA across PCIe: SPUs of one accelerator PUT (or GET) a stream of 16 KiB MFC
// commands between their local stores and host memory, keeping their command queues full.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"

namespace hs::fw::stream {

struct Config {
  int pcie_link = 0;
  uint64_t bytes_per_spe = 1 << 20;
  bool to_host = true;  // PUT to host memory (upstream writes) or GET from it (reads)
  uint32_t command_bytes = 16 * 1024;
};

void spu_program(Hal& hal, const Config& cfg, int spe);

}  // namespace hs::fw::stream
