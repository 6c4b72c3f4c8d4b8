// One's own sc_main against an installed hybridsim: a hybrid node (host, Cell accelerator,
// PCIe and Ethernet links) with firmware written here. The host writes a block of numbers into
// the accelerator's memory across PCIe and raises a flag; SPE 0 waits for the flag, fetches
// the block into its local store with MFC GETs, sums it and PUTs the sum back; the host polls
// for the sum. The program checks the sum and prints what the PCIe link carried.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numeric>
#include <systemc>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "hw/hybrid/hybrid_node.h"
#include "sw/hal/mfc.h"
#include "tlm/check/checker.h"
#include "tlm/params/param_registry.h"

namespace amap = hs::hybrid::amap;

namespace {

constexpr uint32_t kWords = 4096;       // 16 KiB of 32-bit numbers: one MFC command
constexpr uint64_t kBlock = 0x10'0000;  // in the accelerator's DRAM
constexpr uint64_t kFlag = 0x20'0000;   // 16 B: set to 1 once the block is written
constexpr uint64_t kSum = 0x20'0100;    // 16 B: the SPE's answer, then 1 in word 2
constexpr uint32_t kLsBlock = 0x0, kLsFlag = 0x1'0000, kLsSum = 0x1'0100;

void host_firmware(hs::fw::Hal& hal, uint64_t& sum_seen) {
  const uint64_t acc = amap::acc_via_pcie(0, 0);  // accelerator 0 through its PCIe link
  std::vector<uint32_t> block(kWords);
  std::iota(block.begin(), block.end(), 1u);
  {
    hs::fw::Phase phase(hal, "write block");
    hal.store(acc + kBlock, block.data(), block.size() * sizeof(uint32_t));
    hal.store<uint32_t>(acc + kFlag, 1);
  }
  hs::fw::Phase phase(hal, "wait for sum");
  while (hal.load<uint32_t>(acc + kSum + 8) != 1) hal.compute(2000);
  sum_seen = hal.load<uint64_t>(acc + kSum);
  hal.log("host read the sum back");
}

void spe_firmware(hs::fw::Hal& hal) {
  namespace mfc = hs::fw::mfc;
  do {  // the SPU cannot load main memory: it fetches the flag into its local store
    mfc::get(hal, kLsFlag, amap::kAccDram + kFlag, 16, 0);
    mfc::wait_tags(hal, 1u << 0);
  } while (hal.load<uint32_t>(amap::kSpeLocalStore + kLsFlag) != 1);
  mfc::get(hal, kLsBlock, amap::kAccDram + kBlock, kWords * 4, 1);
  mfc::wait_tags(hal, 1u << 1);
  std::vector<uint32_t> block(kWords);
  hal.load(amap::kSpeLocalStore + kLsBlock, block.data(), block.size() * sizeof(uint32_t));
  hal.compute(kWords);  // one add per cycle
  const uint64_t answer[2] = {std::accumulate(block.begin(), block.end(), uint64_t{0}), 1};
  hal.store(amap::kSpeLocalStore + kLsSum, answer, sizeof answer);
  mfc::put(hal, kLsSum, amap::kAccDram + kSum, sizeof answer, 2);
  mfc::wait_tags(hal, 1u << 2);
}

}  // namespace

int sc_main(int, char*[]) {
  try {
    // Parameters are set by name before the model is built, as `--set` does on the command
    // line; finalize() then reports any that were misspelt or out of range.
    auto& params = hs::ParamRegistry::instance();
    params.set_override("node0.pcie0.lanes", 8, {"own_firmware main.cpp", 2});
    hs::hybrid::HybridNode node("node0");
    params.finalize();

    uint64_t sum_seen = 0;
    node.host->core_list[0]->set_firmware([&](hs::fw::Hal& hal) { host_firmware(hal, sum_seen); });
    node.accelerators[0]->spes[0]->spu.set_firmware(spe_firmware);
    sc_core::sc_start();

    const uint64_t expected = uint64_t{kWords} * (kWords + 1) / 2;
    auto& checks = hs::CheckRegistry::instance();
    const auto& link = node.pcie(0, 0);
    std::printf("sum %llu (expected %llu) at %.3f us\n", static_cast<unsigned long long>(sum_seen),
                static_cast<unsigned long long>(expected),
                sc_core::sc_time_stamp().to_seconds() * 1e6);
    std::printf("PCIe down: %llu payload bytes, %llu on the wire; up: %llu, %llu\n",
                static_cast<unsigned long long>(link.payload_bytes(0)),
                static_cast<unsigned long long>(link.wire_bytes(0)),
                static_cast<unsigned long long>(link.payload_bytes(1)),
                static_cast<unsigned long long>(link.wire_bytes(1)));
    if (!checks.ok() || sum_seen != expected) {
      std::fprintf(stderr, "own_firmware: FAILED (%zu invariant violation(s))\n",
                   checks.violations().size());
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_firmware: %s\n", e.what());
    return 2;
  }
}
