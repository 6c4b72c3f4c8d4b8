#include "sw/apps/pcie_stream.h"

#include <algorithm>

#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"

namespace hs::fw::stream {

namespace amap = hybrid::amap;

void spu_program(Hal& hal, const Config& cfg, int spe) {
  Phase p(hal, cfg.to_host ? "stream PUT to host" : "stream GET from host");
  // Each SPU streams its own 16 MiB region of host memory through one local-store buffer
  // per tag (the data itself is not the point here, the bus traffic is).
  const uint64_t host = amap::host_via_pcie(cfg.pcie_link) + (uint64_t(spe) << 24);
  for (uint64_t off = 0; off < cfg.bytes_per_spe; off += cfg.command_bytes) {
    const auto n =
        static_cast<uint32_t>(std::min<uint64_t>(cfg.command_bytes, cfg.bytes_per_spe - off));
    const uint32_t lsa = static_cast<uint32_t>((off / cfg.command_bytes) % 8) * cfg.command_bytes;
    mfc::command(hal, cfg.to_host ? mfc::op::kPut : mfc::op::kGet, lsa,
                 host + (off % (uint64_t{16} << 20)), n, 0);
  }
  mfc::wait_tags(hal, 1u);
}

}  // namespace hs::fw::stream
