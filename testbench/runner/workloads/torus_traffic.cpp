// Synthetic traffic over the whole torus at a given offered load
// (hw/torus/network/traffic_generator.h).
#include <fmt/format.h>
#include <memory>

#include "hw/torus/network/traffic_generator.h"
#include "testbench/runner/torus_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/stats/measurement_window.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(torus_traffic, TorusModel,
                   "synthetic packets from every node in a traffic pattern at an offered load") {
  m.results_declared.declare({
      {"pattern", "", "the traffic pattern the sources drew destinations from"},
      {"window/start_ns", "ns", "the measurement window's start (after the warm-up)"},
      {"window/end_ns", "ns", "the end of the part of the window the run reached"},
      {"window/planned_end_ns", "ns", "the window's planned end (warm-up plus duration)"},
      {"window/reached", "", "how much of the window the run covered: whole, part or not reached"},
      {"offered_load", "", "wire bytes offered per node, as a fraction of the bisection bound"},
      {"accepted_load", "",
       "wire bytes delivered per node over the window, as a fraction of the bisection bound"},
      {"bisection_bound_MBps_per_node", "MB/s", "the uniform-random bisection bound per node"},
      {"accepted_MBps_per_node", "MB/s",
       "wire bytes delivered per node per second over the window"},
      {"mean_latency_ns", "ns",
       "creation to delivery, mean over the packets created in the window"},
      {"first_half_accepted_load", "", "accepted load over the window's first half"},
      {"second_half_accepted_load", "",
       "accepted load over the window's second half (close to the first half's when the window is "
       "steady)"},
      {"first_half_mean_latency_ns", "ns", "mean latency of the packets created in the first half"},
      {"second_half_mean_latency_ns", "ns",
       "mean latency of the packets created in the second half"},
      {"first_half_network_latency_ns", "ns",
       "injection FIFO to delivery, mean over the first half's deliveries"},
      {"second_half_network_latency_ns", "ns",
       "injection FIFO to delivery, mean over the second half's deliveries"},
      {"first_half_transit_latency_ns", "ns",
       "first link's grant to delivery, mean over the first half's deliveries"},
      {"second_half_transit_latency_ns", "ns",
       "first link's grant to delivery, mean over the second half's deliveries"},
      {"first_half_injection_wait_ns", "ns",
       "time in the injection FIFO, mean over the first half's deliveries"},
      {"second_half_injection_wait_ns", "ns",
       "time in the injection FIFO, mean over the second half's deliveries"},
      {"first_half_source_queue_ns", "ns",
       "time in the source queue, mean over the first half's deliveries"},
      {"second_half_source_queue_ns", "ns",
       "time in the source queue, mean over the second half's deliveries"},
      {"max_latency_ns", "ns", "the largest latency of a packet created in the window"},
      {"p99_latency_ns", "ns", "the 99th percentile latency of the packets created in the window"},
      {"packets_generated", "packets", "packets the sources generated"},
      {"packets_refused_at_source", "packets",
       "packets dropped because their source queue was full"},
      {"packets_delivered", "packets", "packets delivered"},
      {"packet_hops", "hops", "link traversals of every packet"},
  });
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
  m.save_workload = [gen] { return gen->save_partition(); };
  m.merge_workload = [gen](const Bytes& b) { gen->merge_partition(b); };
  m.planned_end_ns = cfg.end_ns;
  m.summary = fmt::format(
      "{} traffic at offered load {:g} of the bisection bound, {} B packets, "
      "on the {}x{}x{} torus ({} nodes)",
      pattern, cfg.load, cfg.packet_bytes, shape.size(0), shape.size(1), shape.size(2),
      shape.nodes());
  auto* net = m.machine.network.get();
  m.results = [gen, net, cfg, pattern] {
    const double bound = net->config().bisection_bound_per_node();
    // A run cut short leaves packets, and their tokens, in the network: then neither check runs.
    auto& checks = CheckRegistry::instance();
    checks.check_finished_work(
        "torus traffic: every packet delivered (no deadlock)", net->in_flight() == 0, "torus", [&] {
          std::string stuck;
          for (const std::string& s : net->undelivered(8)) stuck += "; " + s;
          return fmt::format("{} packets were never delivered (deadlock){}{}", net->in_flight(),
                             stuck, net->in_flight() > 8 ? "; ..." : "");
        });
    if (net->in_flight() == 0) {
      checks.check_finished_work(
          "torus traffic: every buffer token returns once the network drains",
          net->tokens_outstanding() == 0, "torus", [&] {
            return fmt::format("{} chunks of tokens never came back", net->tokens_outstanding());
          });
    }
    if (gen->misdelivered() != 0) {
      CheckRegistry::instance().fail(
          "torus traffic: packets reach the node they were sent to", "torus",
          fmt::format("{} packets were delivered to the wrong node", gen->misdelivered()));
    }
    // Figures over the part of each window the run reached; null for a window never reached.
    const uint64_t at = hs::now().value();
    const MeasurementWindow& w = gen->window();
    const auto in = [&](const MeasurementWindow& win, double v) { return win.figure(at, v); };
    const MeasurementWindow h0 = w.half(0), h1 = w.half(1);
    return Json{
        {"pattern", pattern},
        {"window", w.to_json(at)},
        {"offered_load", gen->offered_per_node() / bound},
        {"accepted_load", in(w, gen->accepted_per_node() / bound)},
        {"bisection_bound_MBps_per_node", bound / 1e6},
        {"accepted_MBps_per_node", in(w, gen->accepted_per_node() / 1e6)},
        {"mean_latency_ns", in(w, gen->mean_latency_ns())},
        {"first_half_accepted_load", in(h0, gen->accepted_per_node_half(0) / bound)},
        {"second_half_accepted_load", in(h1, gen->accepted_per_node_half(1) / bound)},
        {"first_half_mean_latency_ns", in(h0, gen->mean_latency_half_ns(0))},
        {"second_half_mean_latency_ns", in(h1, gen->mean_latency_half_ns(1))},
        {"first_half_network_latency_ns", in(h0, gen->mean_network_latency_half_ns(0))},
        {"second_half_network_latency_ns", in(h1, gen->mean_network_latency_half_ns(1))},
        {"first_half_transit_latency_ns", in(h0, gen->mean_transit_latency_half_ns(0))},
        {"second_half_transit_latency_ns", in(h1, gen->mean_transit_latency_half_ns(1))},
        {"first_half_injection_wait_ns", in(h0, gen->mean_injection_wait_half_ns(0))},
        {"second_half_injection_wait_ns", in(h1, gen->mean_injection_wait_half_ns(1))},
        {"first_half_source_queue_ns", in(h0, gen->mean_source_queue_half_ns(0))},
        {"second_half_source_queue_ns", in(h1, gen->mean_source_queue_half_ns(1))},
        {"max_latency_ns", in(w, gen->percentile_latency_ns(1.0))},
        {"p99_latency_ns", in(w, gen->percentile_latency_ns(0.99))},
        {"packets_generated", gen->generated()},
        {"packets_refused_at_source", gen->refused_at_source()},
        {"packets_delivered", gen->delivered()},
        {"packet_hops", net->packet_hops()},
    };
  };
}

}  // namespace hs::runner
