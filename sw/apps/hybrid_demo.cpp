#include "sw/apps/hybrid_demo.h"

#include <fmt/format.h>
#include <algorithm>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "sw/hal/irq_wait.h"
#include "sw/hal/mfc.h"

namespace hs::fw::demo {

namespace amap = hybrid::amap;

namespace {

uint64_t mix(uint64_t x) {  // splitmix64 finaliser: a cheap, seedable byte pattern
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

double seconds(Hal& hal, uint64_t from_cycles) {
  return static_cast<double>(hal.cycles() - from_cycles) / hal.clock_hz();
}

std::vector<uint8_t> input_block(const Config& cfg, uint64_t offset, uint64_t len) {
  std::vector<uint8_t> v(len);
  for (uint64_t i = 0; i < len; ++i) v[i] = input_byte(cfg.seed, offset + i);
  return v;
}

// Slice of the input an SPU works on, aligned to 128 bytes.
void slice(const Config& cfg, int spe, uint64_t& begin, uint64_t& end) {
  const uint64_t per = (cfg.host_bytes / cfg.spes + 127) / 128 * 128;
  begin = std::min(cfg.host_bytes, per * spe);
  end = std::min(cfg.host_bytes, begin + per);
}

// Where SPU `spe` leaves its completion word in accelerator DRAM.
uint64_t done_flag(int spe) {
  return kAccInput - 64 * static_cast<uint64_t>(spe + 1);
}

// Doorbell status of core `core` at the accelerator's interrupt controller.
constexpr uint64_t acc_doorbell_status(int core) {
  return amap::kAccIrq + static_cast<uint64_t>(core) * amap::kDoorbellStride + 4;
}

}  // namespace

uint64_t irq_timeout_cycles(const Config& cfg, double clock_hz) {
  if (cfg.irq_timeout_cycles > 0) return cfg.irq_timeout_cycles;
  const double bytes = static_cast<double>(cfg.host_bytes + cfg.read_bytes + cfg.ethernet_bytes);
  const double work = bytes * (cfg.compute_cycles_per_byte + clock_hz / 100e6);
  return std::max<uint64_t>(1'000'000, static_cast<uint64_t>(8 * work));
}

uint8_t input_byte(uint64_t seed, uint64_t i) {
  return static_cast<uint8_t>(mix(seed * 0x100000001B3ull + (i >> 3)) >> ((i & 7) * 8));
}

void host_program(Hal& hal, const Config& cfg, HostResults& out) {
  const uint64_t acc = amap::acc_via_pcie(cfg.accelerator, cfg.pcie_link);
  constexpr uint64_t kChunk = 4096;  // one write-combined burst per store
  {
    Phase p(hal, "write input over PCIe");
    const uint64_t t0 = hal.cycles();
    for (uint64_t off = 0; off < cfg.host_bytes; off += kChunk) {
      const uint64_t n = std::min(kChunk, cfg.host_bytes - off);
      auto block = input_block(cfg, off, n);
      hal.store(acc + amap::kAccDram + kAccInput + off, block.data(), n);
    }
    out.write_seconds = seconds(hal, t0);
  }
  {
    Phase p(hal, "read back over PCIe");
    const uint64_t t0 = hal.cycles();
    const uint64_t n = std::min(cfg.read_bytes, cfg.host_bytes);
    std::vector<uint8_t> back(n);
    hal.load(acc + amap::kAccDram + kAccInput, back.data(), n);
    out.read_seconds = seconds(hal, t0);
    if (back != input_block(cfg, 0, n))
      hal.fail("read-back over PCIe differs from what was written");
  }
  if (cfg.ethernet_link >= 0) {
    Phase p(hal, "send over Ethernet");
    const uint64_t eth = amap::acc_via_ethernet(cfg.accelerator, cfg.ethernet_link);
    auto block = input_block(cfg, 0, cfg.ethernet_bytes);
    hal.store(eth + amap::kAccDram + kAccEthernetIn, block.data(), block.size());
    // The flag follows the data on the same link, so it arrives after it.
    hal.store<uint64_t>(eth + amap::kAccDram + kAccEthernetIn + cfg.ethernet_bytes, 1);
  }
  {
    Phase p(hal, "offload to accelerator");
    const uint64_t t0 = hal.cycles();
    hal.reg_write(acc + amap::kAccIrq + 0 * amap::kDoorbellStride, kIrqDoorbell);
    const uint64_t status =
        amap::kHostIrq + static_cast<uint64_t>(cfg.accelerator) * amap::kDoorbellStride + 4;
    irq::wait_doorbell(hal, 1u << kIrqDoorbell, irq::doorbell_status(hal, status),
                       irq_timeout_cycles(cfg, hal.clock_hz()), "demo offload result");
    out.offload_seconds = seconds(hal, t0);
  }
  {
    Phase p(hal, "check result");
    const uint64_t base = kHostResult + kHostResultStride * cfg.accelerator;
    std::vector<uint8_t> result(cfg.host_bytes);
    hal.load(amap::kHostDram + base, result.data(), result.size());
    auto expect = input_block(cfg, 0, cfg.host_bytes);
    for (uint64_t i = 0; i < result.size(); ++i) {
      if (result[i] != static_cast<uint8_t>(expect[i] + 1)) {
        hal.fail(fmt::format("result byte {} is {:#x}, expected {:#x}", i, result[i],
                             static_cast<uint8_t>(expect[i] + 1)));
      }
    }
    out.verified = true;
  }
}

void ppe_program(Hal& hal, const Config& cfg) {
  const uint64_t timeout = irq_timeout_cycles(cfg, hal.clock_hz());
  irq::wait_doorbell(hal, 1u << kIrqDoorbell, irq::doorbell_status(hal, acc_doorbell_status(0)),
                     timeout, "demo offload start");
  if (cfg.ethernet_link >= 0) {
    Phase p(hal, "check Ethernet block");
    while (hal.load<uint64_t>(amap::kAccDram + kAccEthernetIn + cfg.ethernet_bytes) == 0) {
      hal.compute(200);  // poll the local flag
    }
    std::vector<uint8_t> got(cfg.ethernet_bytes);
    hal.load(amap::kAccDram + kAccEthernetIn, got.data(), got.size());
    if (got != input_block(cfg, 0, cfg.ethernet_bytes)) hal.fail("Ethernet block corrupted");
  }
  {
    Phase p(hal, "run SPEs");
    for (int s = 0; s < cfg.spes; ++s) {
      hal.reg_write(amap::kAccIrq + (1 + s) * amap::kDoorbellStride, kIrqSpeStart);
    }
    for (int done = 0; done < cfg.spes;) {
      const bool timed_out = hal.wait_irq(1u << kIrqSpeDone, timeout) == 0;
      // Each SPU leaves a completion word in DRAM; count them (interrupts coalesce, and one
      // lost shows only here).
      const int before = done;
      done = 0;
      for (int s = 0; s < cfg.spes; ++s) {
        done += hal.load<uint32_t>(amap::kAccDram + done_flag(s)) != 0 ? 1 : 0;
      }
      if (timed_out && done > before) hal.irq_recovered("demo SPU done");
    }
  }
  // MSI to host core `accelerator` across PCIe.
  hal.reg_write(amap::host_via_pcie(cfg.pcie_link) + amap::kHostIrq +
                    static_cast<uint64_t>(cfg.accelerator) * amap::kDoorbellStride,
                kIrqDoorbell);
}

void spu_program(Hal& hal, const Config& cfg, int spe) {
  // The SPU reaches its doorbell status only by DMA: a 4-byte GET or PUT through a local-store
  // word with the register's alignment, fenced by its own tag group.
  {
    const uint64_t status = acc_doorbell_status(1 + spe);
    const uint32_t word = 256 * 1024 - 224 + static_cast<uint32_t>(status & 15);
    constexpr uint32_t kStatusTag = 3;
    auto read = [&hal, status, word] {
      mfc::get(hal, word, status, 4, kStatusTag);
      mfc::wait_tags(hal, 1u << kStatusTag);
      return hal.load<uint32_t>(amap::kSpeLocalStore + word);
    };
    auto clear = [&hal, status, word](uint32_t lines) {
      hal.store<uint32_t>(amap::kSpeLocalStore + word, lines);
      mfc::put(hal, word, status, 4, kStatusTag);
      mfc::wait_tags(hal, 1u << kStatusTag);
    };
    irq::wait_doorbell(hal, 1u << kIrqSpeStart, {read, clear},
                       irq_timeout_cycles(cfg, hal.clock_hz()), "demo SPU start");
  }
  uint64_t begin, end;
  slice(cfg, spe, begin, end);
  const uint32_t block = cfg.block_bytes;
  const uint64_t host_result = amap::host_via_pcie(cfg.pcie_link) + kHostResult +
                               kHostResultStride * static_cast<uint64_t>(cfg.accelerator);
  // Two buffers, tags 0 and 1: GET the next block while computing on this one.
  const uint32_t buf[2] = {0, block};
  auto get = [&](uint64_t off, int b) {
    mfc::get(hal, buf[b], amap::kAccDram + kAccInput + off,
             static_cast<uint32_t>(std::min<uint64_t>(block, end - off)), b);
  };
  {
    Phase p(hal, "transform slice");
    if (begin < end) get(begin, 0);
    int b = 0;
    std::vector<uint8_t> data;
    for (uint64_t off = begin; off < end; off += block, b ^= 1) {
      const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(block, end - off));
      mfc::wait_tags(hal, 1u << b);
      if (off + block < end) {
        mfc::wait_tags(hal, 1u << (b ^ 1));  // that buffer's previous PUT must be done
        get(off + block, b ^ 1);
      }
      data.resize(n);
      hal.load(amap::kSpeLocalStore + buf[b], data.data(), n);
      for (auto& x : data) ++x;
      hal.compute(static_cast<uint64_t>(n * cfg.compute_cycles_per_byte));
      hal.store(amap::kSpeLocalStore + buf[b], data.data(), n);
      mfc::put(hal, buf[b], host_result + off, n, b);
    }
    mfc::wait_tags(hal, 0x3);
  }
  // An SPU reaches only its local store and MFC: it signals by DMA. The completion word
  // goes first and the tag wait fences it before the doorbell to the PPE.
  constexpr uint32_t kMessage = 256 * 1024 - 256;
  hal.store<uint32_t>(amap::kSpeLocalStore + kMessage, 1);
  hal.store<uint32_t>(amap::kSpeLocalStore + kMessage + 16, kIrqSpeDone);
  mfc::put(hal, kMessage, amap::kAccDram + done_flag(spe), 4, 2);
  mfc::wait_tags(hal, 1u << 2);
  mfc::put(hal, kMessage + 16, amap::kAccIrq + 0 * amap::kDoorbellStride, 4, 2);
  mfc::wait_tags(hal, 1u << 2);
}

}  // namespace hs::fw::demo
