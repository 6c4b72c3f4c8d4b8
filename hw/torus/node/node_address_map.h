// A torus compute node's physical address map, as its cores and its DMA engine see it.
#pragma once
#include <cstdint>

namespace hs::torus::amap {

constexpr uint64_t kDram = 0x0000'0000;
constexpr uint64_t kDramMax = 0xE000'0000;  // 3.5 GiB
constexpr uint64_t kDmaRegs = 0xF000'0000;

}  // namespace hs::torus::amap
