// The host-accelerator path as a program measures it, on either topology:
//   1. host core `core` writes 8 bytes into accelerator DRAM `samples` times, one at a time
//      (the workload observes each write's arrival at the memory: one-way latency of a posted
//      write);
//   2. it reads 8 bytes back `samples` times (a read's round trip, as the core waits for it);
//   3. it raises a flag in accelerator DRAM; the PPE then has the accelerator's DMA engine copy
//      `bytes` from host memory into its DRAM (host to Cell), and back into another host buffer
//      (Cell to host), timing each copy from submission to completion (sustained bandwidth).
// Every byte copied is checked by the workload against what it placed.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/hal/hal.h"

namespace hs::fw::host_path {

struct Config {
  int accelerator = 0;
  int samples = 8;
  uint64_t bytes = 4 << 20;    // per DMA copy
  uint64_t gap_cycles = 4000;  // between samples, so no two overlap
};

// Where the workload keeps its data.
constexpr uint64_t kAccSamples = 0x1000'0000;  // accelerator DRAM: one 64-byte line per sample
constexpr uint64_t kAccFlag = 0x0F00'0000;     // accelerator DRAM: the host's go-ahead
constexpr uint64_t kAccRequest = 0x0F00'1000;  // accelerator DRAM: the DMA requests
constexpr uint64_t kAccCopy = 0x1100'0000;     // accelerator DRAM: where the first copy lands
constexpr uint64_t kHostSource = 0x4000'0000;  // host DRAM: the data to copy in
constexpr uint64_t kHostCopy = 0x5000'0000;    // host DRAM: where the second copy lands

struct HostResults {
  std::vector<uint64_t> write_issue_ps;  // when each sample write was issued
  std::vector<double> read_ns;           // each read's round trip
  bool done = false;
};
struct PpeResults {
  double to_cell_ns = 0, to_host_ns = 0;
  bool done = false;
};

void host_program(Hal& hal, const Config& cfg, HostResults& out);
void ppe_program(Hal& hal, const Config& cfg, PpeResults& out);

}  // namespace hs::fw::host_path
