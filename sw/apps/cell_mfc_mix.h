// A random mix of MFC commands, for the seed soak: every SPE runs a plan drawn from the seed
// (GET and PUT of every legal size and alignment, their fenced and barriered forms, lists
// with stall-and-notify, BARRIER, EIEIO and SYNC, tag-status waits in every mode over a few
// tags so the ordering rules bite), and the PPE adds proxy commands. Every copy a plan makes
// lands in bytes no other command touches, so the data each should leave is known whatever
// order the commands run in; the run's MFC checker watches the order itself.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "hw/cell/spe_interface.h"
#include "sw/hal/hal.h"

namespace hs::fw::cell_mix {

struct Config {
  int commands = 200;         // per SPE
  uint32_t tags = 4;          // tags drawn from 0 .. tags - 1
  uint32_t max_bytes = 4096;  // largest transfer or list element
  int proxy_commands = 8;     // per SPE, from the PPE
};

// Where each SPE's data lives: a source region of DRAM it reads, a region it writes, and its
// local store split into a source area (PUTs read it), GET destinations, lists, and proxy GET
// destinations.
uint64_t dram_source(int spe);       // 256 KiB
uint64_t dram_destination(int spe);  // 1 MiB: SPU PUTs in the first half, proxy PUTs after
constexpr uint64_t kDramEnd = 0x0300'0000;
constexpr uint32_t kLsSource = 0x0, kLsSourceBytes = 0x1'0000;
// A byte of the pattern every source holds.
uint8_t source_byte(int spe, bool dram, uint64_t offset);

// A copy the plan makes: `bytes` from the source (DRAM source region or local-store source
// area, at an offset) to the destination (local store or DRAM destination region).
struct Copy {
  bool into_local_store;
  uint64_t source_offset;
  uint64_t destination;  // local-store address, or DRAM address
  uint32_t bytes;
};

struct Step {
  enum Kind { Command, List, Wait } kind = Command;
  uint32_t opcode = 0, lsa = 0, size = 0, tag = 0;
  uint64_t ea = 0;
  std::vector<cell::spe::ListElement> list;  // written at `lsa` of the list area first
  uint32_t list_lsa = 0;
  bool stalls = false;  // a list with a stall-and-notify element
  uint32_t wait_mask = 0, wait_mode = 0;
};

struct Plan {
  std::vector<Step> spu;     // the SPU's steps, in order
  std::vector<Step> proxy;   // the PPE's proxy commands for this SPE
  std::vector<Copy> copies;  // every copy, SPU's and proxy's
};

Plan make_plan(const Config& cfg, int spe, uint64_t seed);

void spu_program(Hal& hal, const Plan& plan);
// The PPE's proxy commands for each SPE in turn, then a wait for all of them.
void ppe_program(Hal& hal, const std::vector<const Plan*>& plans);

}  // namespace hs::fw::cell_mix
