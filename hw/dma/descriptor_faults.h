// What a descriptor-driven DMA engine (the hybrid node's and the torus node's) shares about its
// faults and its error path.
//
// DescriptorFaults: `bad_descriptor_*` corrupts a fetched descriptor's data address to
// kPoisonAddress, which no target maps, so the engine's next access through it fails and the
// engine takes its error path; `stall_*` hangs the engine for good at a descriptor, for the
// liveness check to find. Events are the descriptors the engine fetches, numbered from 1 per
// engine (the nodes of a torus each count their own). Every hit is counted in the engine's
// statistics (bad_descriptors, stalls) and marked on its trace track.
//
// HaltRecord: what an engine keeps of the access that halted it; its error registers read it,
// and its liveness report and trace show it.
#pragma once
#include <cstdint>
#include <string>

#include "hw/dma/dma_interface.h"  // kPoisonAddress
#include "tlm/fault/fault_injector.h"
#include "tlm/stats/statistics.h"

namespace hs {
class ParamScope;
}

namespace hs::dma {

class DescriptorFaults {
 public:
  struct Spec {
    FaultInjector::Spec bad_descriptor, stall;
  };
  // Declares bad_descriptor_{rate,at} and stall_{rate,at} in `scope`.
  static Spec declare(const ParamScope& scope);

  // `stream` tells apart engines that share one set of parameters (a torus's nodes).
  DescriptorFaults(const Spec& spec, StatGroup& stats, const std::string& stream = "");
  // Whether the descriptor just fetched is corrupted (the caller poisons its address).
  bool corrupt(int track);
  // Whether the engine hangs at the descriptor just fetched.
  bool stall(int track);

 private:
  FaultInjector bad_descriptor_, stall_;
  Counter& bad_descriptors_;
  Counter& stalls_;
};

struct HaltRecord {
  bool halted = false;
  uint64_t descriptor = 0;  // the descriptor being executed
  uint64_t address = 0;     // the address whose access failed
  std::string why;
  void halt(uint64_t at_descriptor, uint64_t failed_address, std::string reason, int track);
  // "" while running; "; halted on a bus error: <why>" once halted (for liveness reports).
  std::string describe() const;
};

}  // namespace hs::dma
