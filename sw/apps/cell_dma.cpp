#include "sw/apps/cell_dma.h"

#include <algorithm>

#include "sw/hal/mfc.h"

namespace hs::fw::cell_dma {

void spu_program(Hal& hal, const Config& cfg) {
  Phase p(hal, cfg.put ? "cell_dma PUT stream" : "cell_dma GET stream");
  // Whole commands per buffer, so none wraps part-way.
  const uint64_t ls_wrap = cfg.ls_span / cfg.command_bytes * cfg.command_bytes;
  const uint64_t ea_wrap = cfg.region_span / cfg.command_bytes * cfg.command_bytes;
  const uint32_t opcode = cfg.put ? mfc::op::kPut : mfc::op::kGet;
  for (uint64_t off = 0; off < cfg.bytes; off += cfg.command_bytes) {
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(cfg.command_bytes, cfg.bytes - off));
    mfc::command(hal, opcode, cfg.ls_base + static_cast<uint32_t>(off % ls_wrap),
                 cfg.region + off % ea_wrap, n, 0);
  }
  mfc::wait_tags(hal, 1u);
}

}  // namespace hs::fw::cell_dma
