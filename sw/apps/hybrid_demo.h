// The default hybrid-node workload, as firmware for the host, the PPE and the SPUs.
//
// Host core a drives accelerator a:
//   1. streams `host_bytes` of input into accelerator DRAM (posted PCIe writes),
//   2. reads `read_bytes` back (PCIe reads) and checks them,
//   3. sends `ethernet_bytes` and then a ready flag over the Ethernet link,
//   4. rings the PPE's doorbell (an MSI write across PCIe) and waits for the result interrupt.
// The PPE checks the Ethernet block, starts `spes` SPUs and, when all have finished, interrupts
// the host. Each SPU transforms its slice: double-buffered MFC GETs from DRAM into the local
// store, compute, and MFC PUTs of the result straight into host memory across PCIe.
// The host finally checks the result (every byte + 1) in its own DRAM.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"

namespace hs::fw::demo {

struct Config {
  int accelerator = 0;
  int pcie_link = 0;
  int ethernet_link = 0;  // -1: no Ethernet phase
  uint64_t host_bytes = 256 * 1024;
  uint64_t read_bytes = 64 * 1024;
  uint64_t ethernet_bytes = 16 * 1024;
  int spes = 8;
  uint32_t block_bytes = 16 * 1024;  // per MFC command
  double compute_cycles_per_byte = 0.25;
  uint64_t seed = 1;
  // How long a program sleeps on an interrupt before it polls the device's status instead
  // (sw/hal/irq_wait.h), in cycles of the waiting core. 0: irq_timeout_cycles() derives it.
  uint64_t irq_timeout_cycles = 0;
};

// The interrupt timeout for a core clocked at `clock_hz`: the configured one, or eight times
// a bound on the whole run's work (every byte over a 100 MB/s path plus the SPU's compute),
// at least 1M cycles. Every wait of the demo lies within the run, so fault-free runs never
// time out.
uint64_t irq_timeout_cycles(const Config& cfg, double clock_hz);

// Where the workload keeps its data.
constexpr uint64_t kAccInput = 0x1000'0000;       // accelerator DRAM
constexpr uint64_t kAccEthernetIn = 0x2000'0000;  // accelerator DRAM
constexpr uint64_t kHostResult = 0x4000'0000;     // host DRAM, per accelerator + acc * 16 MiB
constexpr uint64_t kHostResultStride = 16 << 20;

// Interrupt lines the programs use.
constexpr unsigned kIrqDoorbell = 0;  // host -> PPE, PPE -> host
constexpr unsigned kIrqSpeDone = 1;   // SPU -> PPE
constexpr unsigned kIrqSpeStart = 2;  // PPE -> SPU

// What the host program measured (its console output, in effect).
struct HostResults {
  double write_seconds = 0, read_seconds = 0, offload_seconds = 0;
  bool verified = false;
};

// The byte every program derives for input offset i (so each side can check the other).
uint8_t input_byte(uint64_t seed, uint64_t i);

void host_program(Hal& hal, const Config& cfg, HostResults& out);
void ppe_program(Hal& hal, const Config& cfg);
void spu_program(Hal& hal, const Config& cfg, int spe);

}  // namespace hs::fw::demo
