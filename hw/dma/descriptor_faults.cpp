#include "hw/dma/descriptor_faults.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::dma {

DescriptorFaults::Spec DescriptorFaults::declare(const ParamScope& scope) {
  return {
      FaultInjector::declare(
          scope, "bad_descriptor",
          "descriptors whose address is corrupted (the engine halts on the error)", "descriptor"),
      FaultInjector::declare(scope, "stall", "descriptors at which the engine hangs",
                             "descriptor")};
}

DescriptorFaults::DescriptorFaults(const Spec& spec, StatGroup& stats, const std::string& stream)
    : bad_descriptor_(spec.bad_descriptor, stream),
      stall_(spec.stall, stream),
      bad_descriptors_(stats.counter("bad_descriptors", "descriptors",
                                     "descriptors whose address was corrupted (injected faults)")),
      stalls_(stats.counter("stalls", "stalls", "times the engine hung (injected faults)")) {}

bool DescriptorFaults::corrupt(int track) {
  if (!bad_descriptor_.hit()) return false;
  ++bad_descriptors_;
  if (track >= 0) TransactionTrace::instance().instant(track, "descriptor corrupted", hs::now());
  return true;
}

bool DescriptorFaults::stall(int track) {
  if (!stall_.hit()) return false;
  ++stalls_;
  if (track >= 0) TransactionTrace::instance().instant(track, "stalled", hs::now());
  return true;
}

void HaltRecord::halt(uint64_t at_descriptor, uint64_t failed_address, std::string reason,
                      int track) {
  halted = true;
  descriptor = at_descriptor;
  address = failed_address;
  why = std::move(reason);
  if (track >= 0) {
    const nlohmann::json args = {{"descriptor", descriptor}, {"address", address}};
    TransactionTrace::instance().instant(track, "halted on bus error", hs::now(), &args);
  }
}

std::string HaltRecord::describe() const {
  return halted ? "; halted on a bus error: " + why : "";
}

}  // namespace hs::dma
