// A PCIe link between two scripted initiators and two recording memories, for the link's
// tests (throughput, credits, the data link layer and its faults).
#pragma once
#include <memory>
#include <string>

#include "hw/pcie/pcie_link.h"
#include "testbench/support/scripted_initiator.h"
#include "tlm/params/param_registry.h"

namespace hs::testing {

inline constexpr double kMemLatencyNs = 50;

// A link with a scripted initiator and a recording memory on each side.
struct LinkBench {
  std::unique_ptr<pcie::PcieLink> link;
  std::unique_ptr<RecordingMemory> mem_a, mem_b;
  std::unique_ptr<ScriptedInitiator> init_a, init_b;

  // `in_place`: the memories never wait, and the link is told so (it delivers in place).
  LinkBench(ScriptedInitiator::Script from_a, ScriptedInitiator::Script from_b = nullptr,
            double mem_latency_ns = kMemLatencyNs, bool in_place = false) {
    link = std::make_unique<pcie::PcieLink>("pcie0", 0);
    mem_a = std::make_unique<RecordingMemory>("mem_a",
                                              sc_core::sc_time(mem_latency_ns, sc_core::SC_NS));
    mem_b = std::make_unique<RecordingMemory>("mem_b",
                                              sc_core::sc_time(mem_latency_ns, sc_core::SC_NS));
    init_a = std::make_unique<ScriptedInitiator>(
        "init_a", from_a ? from_a : [](auto&) {});
    init_b = std::make_unique<ScriptedInitiator>(
        "init_b", from_b ? from_b : [](auto&) {});
    init_a->socket.bind(link->port(hs::link::SplitLink::A).in);
    init_b->socket.bind(link->port(hs::link::SplitLink::B).in);
    link->port(hs::link::SplitLink::A).out.bind(mem_a->socket);
    link->port(hs::link::SplitLink::B).out.bind(mem_b->socket);
    if (in_place) {
      link->receiver_never_waits(hs::link::SplitLink::A);
      link->receiver_never_waits(hs::link::SplitLink::B);
    }
    ParamRegistry::instance().finalize();
  }
};

// Overrides parameter `name` of the bench's link (pcie0.NAME) before the bench is built.
inline void set_link_param(const std::string& name, const Json& v) {
  ParamRegistry::instance().set_override("pcie0." + name, v, {"test", 2});
}

}  // namespace hs::testing
