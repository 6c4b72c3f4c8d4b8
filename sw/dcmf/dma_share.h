// How the endpoints (ranks) of one compute node share its DMA engine, as on Blue Gene/P: each
// owns an equal slice of the injection FIFOs, one reception FIFO, an equal slice of the
// counter groups in both banks, and its own node-memory windows for them. Nothing is shared,
// so ranks of a node never coordinate to use the engine.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace hs::fw::dcmf {

struct DmaShare {
  int injection_fifo = 0;   // first injection FIFO (the layer's data, high and control FIFOs)
  int injection_fifos = 0;  // how many it owns
  int reception_fifo = 0;
  int first_group = 0, groups = 0;  // counter groups, the same in both banks
  uint64_t injection_memory = 0;    // its injection FIFOs' memory
  uint64_t reception_memory = 0;    // its reception FIFO's memory
  uint64_t scratch_memory = 0;      // RTS records and acknowledgement descriptors
};

// Which of the DMA's resources is too small to share: "injection_fifos", "reception_fifos"
// or "counter_groups" (the names of the DMA's parameters).
struct DmaShareError : std::invalid_argument {
  DmaShareError(const char* resource_name, const std::string& what)
      : std::invalid_argument(what), resource(resource_name) {}
  const char* resource;
};

// Endpoint `local` of `endpoints` on a node whose engine has the given FIFOs and counter
// groups per bank. Throws DmaShareError when a slice would be too small for the
// messaging layer (three injection FIFOs, one reception FIFO, one counter group).
DmaShare dma_share(int local, int endpoints, int injection_fifos, int reception_fifos,
                   int counter_groups);

}  // namespace hs::fw::dcmf
