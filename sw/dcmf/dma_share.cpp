#include "sw/dcmf/dma_share.h"

#include <fmt/format.h>
#include <stdexcept>

#include "sw/dcmf/messenger.h"

namespace hs::fw::dcmf {

DmaShare dma_share(int local, int endpoints, int injection_fifos, int reception_fifos,
                   int counter_groups) {
  if (endpoints < 1 || local < 0 || local >= endpoints) {
    throw std::invalid_argument(fmt::format("endpoint {} of {} on a node", local, endpoints));
  }
  DmaShare s;
  s.injection_fifos = injection_fifos / endpoints;
  s.groups = counter_groups / endpoints;
  if (s.injection_fifos < kControlFifo + 1) {
    throw DmaShareError(
        "injection_fifos",
        fmt::format("{} injection FIFOs shared by {} endpoints leave {} each; the messaging "
                    "layer needs {}",
                    injection_fifos, endpoints, s.injection_fifos, kControlFifo + 1));
  }
  if (reception_fifos < endpoints) {
    throw DmaShareError("reception_fifos",
                        fmt::format("{} reception FIFOs cannot give each of {} endpoints its own",
                                    reception_fifos, endpoints));
  }
  if (s.groups < 1) {
    throw DmaShareError(
        "counter_groups",
        fmt::format("{} counter groups per bank cannot give each of {} endpoints one",
                    counter_groups, endpoints));
  }
  s.injection_fifo = local * s.injection_fifos;
  s.reception_fifo = local;
  s.first_group = local * s.groups;
  const auto l = static_cast<uint64_t>(local);
  s.injection_memory = layout::kInjFifos + l * layout::kInjFifoWindow;
  s.reception_memory = layout::kRecFifo + l * layout::kRecFifoBytes;
  s.scratch_memory = layout::kScratch + l * layout::kScratchSlots * layout::kScratchSlot;
  return s;
}

}  // namespace hs::fw::dcmf
