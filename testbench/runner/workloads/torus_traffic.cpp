// Synthetic traffic over the whole torus at a given offered load
// (hw/torus/network/traffic_generator.h).
#include <fmt/format.h>
#include <memory>

#include "hw/torus/network/traffic_generator.h"
#include "testbench/runner/torus_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(torus_traffic, TorusModel,
                   "synthetic packets from every node in a traffic pattern at an offered load") {
  ParamScope p("workload");
  torus::TrafficConfig cfg;
  std::vector<std::string> names;
  std::string described;
  for (const auto& info : torus::traffic_patterns()) {
    names.push_back(info.name);
    described +=
        fmt::format("{}{}: {}", described.empty() ? "" : "; ", info.name, info.description);
  }
  const std::string pattern = p.choice("pattern", "uniform", "destinations: " + described, names);
  const auto& shape = m.machine.shape();
  cfg.pattern = torus::traffic_pattern(pattern, p.name("pattern")).make(shape, p);
  cfg.load = p.real("load", 0.5, "",
                    "offered wire bytes per node as a fraction of the uniform-random bisection "
                    "bound (torus.network stats: bisection_bound)",
                    Range::between(0, 4));
  cfg.packet_bytes = static_cast<uint32_t>(
      p.integer("packet_bytes", 256, "B", "packet size on the wire before framing",
                Range::one_of({32, 64, 96, 128, 160, 192, 224, 256})));
  cfg.warmup_ns =
      p.real("warmup", 2000, "ns", "time before measurement starts", Range::between(0, 1e9));
  const double duration = p.real("duration", 20000, "ns", "measurement window after the warm-up",
                                 Range::between(1, 1e10));
  cfg.end_ns = cfg.warmup_ns + duration;
  cfg.source_queue = static_cast<uint32_t>(p.integer(
      "source_queue", 256, "packets", "packets a node's source holds before it stops offering more",
      Range::between(1, 1 << 20)));
  cfg.vc_class = p.choice("vc", "dynamic", "virtual channel class the packets ask for",
                          {"dynamic", "deterministic"}) == "dynamic"
                     ? torus::VcClass::Dynamic
                     : torus::VcClass::Deterministic;
  cfg.seed = seed;
  if (cfg.packet_bytes <= m.machine.network->config().header_bytes) {
    throw InputError(
        fmt::format("workload.packet_bytes = {} leaves no payload after the {} B "
                    "header",
                    cfg.packet_bytes, m.machine.network->config().header_bytes));
  }
  auto gen = std::make_shared<torus::TrafficGenerator>(*m.machine.network, cfg);
  m.links.window(sc_core::sc_time(cfg.warmup_ns, sc_core::SC_NS),
                 sc_core::sc_time(cfg.end_ns, sc_core::SC_NS));
  m.keep.push_back(gen);
  auto* net = m.machine.network.get();
  m.results = [gen, net, cfg, pattern] {
    const double bound = net->config().bisection_bound_per_node();
    // A clean stop (sim.stop_at), or a run stopped by an earlier violation, leaves packets, and
    // their tokens, in the network.
    const bool drained =
        !CheckRegistry::instance().stopped_with_work_left() && CheckRegistry::instance().ok();
    if (net->in_flight() != 0 && drained) {
      std::string stuck;
      for (const std::string& s : net->undelivered(8)) stuck += "; " + s;
      CheckRegistry::instance().fail(
          "torus traffic: every packet delivered (no deadlock)", "torus",
          fmt::format("{} packets were never delivered (deadlock){}{}", net->in_flight(), stuck,
                      net->in_flight() > 8 ? "; ..." : ""));
    } else if (drained && net->tokens_outstanding() != 0) {
      CheckRegistry::instance().fail(
          "torus traffic: every buffer token returns once the network drains", "torus",
          fmt::format("{} chunks of tokens never came back", net->tokens_outstanding()));
    }
    if (gen->misdelivered() != 0) {
      CheckRegistry::instance().fail(
          "torus traffic: packets reach the node they were sent to", "torus",
          fmt::format("{} packets were delivered to the wrong node", gen->misdelivered()));
    }
    return Json{
        {"pattern", pattern},
        {"offered_load", gen->offered_per_node() / bound},
        {"accepted_load", gen->accepted_per_node() / bound},
        {"bisection_bound_MBps_per_node", bound / 1e6},
        {"accepted_MBps_per_node", gen->accepted_per_node() / 1e6},
        {"mean_latency_ns", gen->mean_latency_ns()},
        {"first_half_accepted_load", gen->accepted_per_node_half(0) / bound},
        {"second_half_accepted_load", gen->accepted_per_node_half(1) / bound},
        {"first_half_mean_latency_ns", gen->mean_latency_half_ns(0)},
        {"second_half_mean_latency_ns", gen->mean_latency_half_ns(1)},
        {"first_half_network_latency_ns", gen->mean_network_latency_half_ns(0)},
        {"second_half_network_latency_ns", gen->mean_network_latency_half_ns(1)},
        {"first_half_transit_latency_ns", gen->mean_transit_latency_half_ns(0)},
        {"second_half_transit_latency_ns", gen->mean_transit_latency_half_ns(1)},
        {"first_half_injection_wait_ns", gen->mean_injection_wait_half_ns(0)},
        {"second_half_injection_wait_ns", gen->mean_injection_wait_half_ns(1)},
        {"first_half_source_queue_ns", gen->mean_source_queue_half_ns(0)},
        {"second_half_source_queue_ns", gen->mean_source_queue_half_ns(1)},
        {"max_latency_ns", gen->percentile_latency_ns(1.0)},
        {"p99_latency_ns", gen->percentile_latency_ns(0.99)},
        {"packets_generated", gen->generated()},
        {"packets_refused_at_source", gen->refused_at_source()},
        {"packets_delivered", gen->delivered()},
        {"packet_hops", net->packet_hops()},
    };
  };
}

}  // namespace hs::runner
