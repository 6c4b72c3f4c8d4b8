// SPE DMA streams on one Cell: an SPU keeps its MFC queue full of GET or PUT commands
// between its local store and a region on the EIB (a partner SPE's local store or DRAM),
// then waits for them all. The data is not the point, the EIB traffic is.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"

namespace hs::fw::cell_dma {

struct Config {
  uint64_t bytes = 1 << 20;        // bytes this SPU moves
  uint32_t command_bytes = 16384;  // bytes per MFC command
  bool put = true;                 // PUT (local store -> region) or GET (region -> local store)
  uint32_t ls_base = 0;            // its local-store buffer: [ls_base, ls_base + ls_span)
  uint32_t ls_span = 128 * 1024;
  uint64_t region = 0;  // effective address of the region: [region, region + span)
  uint64_t region_span = 128 * 1024;
};

// Commands walk both buffers in steps of command_bytes, wrapping where the next command would
// run past either end.
void spu_program(Hal& hal, const Config& cfg);

}  // namespace hs::fw::cell_dma
