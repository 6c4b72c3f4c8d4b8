#include "hw/torus/node/torus_machine.h"

#include "tlm/parallel/process_group.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>

#include "hw/torus/node/trace_selection.h"
#include "tlm/common/errors.h"
#include "tlm/common/memory_budget.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/signal_trace.h"

namespace hs::torus {

namespace {
// An empty module: only its place in SystemC's registries matters.
struct TeardownSlot : sc_core::sc_module {
  explicit TeardownSlot(sc_core::sc_module_name n) : sc_module(n) {}
};
// The order the nodes are built in: by number, or, for the test that proves results do not
// depend on it, as HYBRIDSIM_TEST_ELABORATION says ("reverse", or "shuffle:SEED").
std::vector<int> elaboration_order(int n) {
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const char* hook = std::getenv("HYBRIDSIM_TEST_ELABORATION");
  const std::string how = hook ? hook : "";
  if (how == "reverse") {
    std::reverse(order.begin(), order.end());
  } else if (how.rfind("shuffle:", 0) == 0) {
    std::mt19937_64 rng(std::stoull(how.substr(8)));
    std::shuffle(order.begin(), order.end(), rng);
  } else if (!how.empty()) {
    throw std::invalid_argument("HYBRIDSIM_TEST_ELABORATION is 'reverse' or 'shuffle:SEED', not '" +
                                how + "'");
  }
  return order;
}

}  // namespace

TorusMachine::TorusMachine(sc_core::sc_module_name name) : sc_module(name) {
  const std::string prefix = this->name();
  const NetworkConfig net_cfg = NetworkConfig::declare(prefix + ".network");
  dma_config_ = dma::DmaConfig::declare(prefix + ".node.dma");
  const auto stats_limit = ParamScope(prefix).integer(
      "node_stats_limit", 64, "nodes",
      "report each node's statistics for machines of at most this many nodes (the machine's "
      "aggregates are always reported)",
      Range::between(0, 1 << 20));
  partition = std::make_unique<Partition>(declare_partition(
      prefix + ".partition", TorusShape(net_cfg.x, net_cfg.y, net_cfg.z, net_cfg.wrap),
      run_processes().size, run_processes().rank));
  network = std::make_unique<TorusNetwork>("network", net_cfg, partition.get());
  const auto built = static_cast<int>(partition->local_nodes().size());
  MemoryBudget::instance().require(
      kBytesPerNode * built,
      partition->whole()
          ? fmt::format("the {}x{}x{} torus ({} nodes)", net_cfg.x, net_cfg.y, net_cfg.z,
                        net_cfg.nodes())
          : fmt::format("partition {} of the {}x{}x{} torus ({} of its {} nodes)",
                        partition->self(), net_cfg.x, net_cfg.y, net_cfg.z, built, net_cfg.nodes()),
      fmt::format("{0}.network.x, {0}.network.y, {0}.network.z", prefix));
  const TraceSelection traced(
      prefix + ".trace_nodes",
      ParamScope(prefix).text(
          "trace_nodes", "*,0,0",
          "nodes whose signals the waveform (--vcd) shows: x,y,z separated by ';', each "
          "coordinate a number, a range such as 0-3, or *; 'all' or 'none'"),
      network->shape());
  const int n = net_cfg.nodes();
  auto& stats = StatsRegistry::instance();
  stats.set_detached(n > stats_limit);
  for (int i = 0; i < kTeardownSlots; ++i) {
    teardown_slots_.push_back(
        std::make_unique<TeardownSlot>(fmt::format("teardown_slot{}", i).c_str()));
  }
  nodes.resize(static_cast<size_t>(n));
  for (int i : elaboration_order(n)) {
    const Coord c = network->shape().coord(i);
    const std::string node = node_name(c);
    if (!partition->local(i)) {  // another partition builds it; traces still name it
      network->trace().name_node(i, prefix + "." + node);
      continue;
    }
    if (!traced.contains(c)) SignalTrace::instance().hide(prefix + "." + node);
    SharedParams shared(prefix + "." + node, prefix + ".node");
    stats.set_place(i);
    nodes[static_cast<size_t>(i)] =
        std::make_unique<ComputeNode>(node.c_str(), i, *network, dma_config_);
    stats.set_place(-1);
  }
  stats.set_detached(false);

  // The machine's totals: sums over this process's nodes, added up over the partitions.
  stats_ = std::make_unique<StatGroup>(prefix + ".dma");
  auto sum = [this](uint64_t dma::TorusDma::Totals::*field) {
    return [this, field] {
      double s = 0;
      for (const ComputeNode* node : built_nodes()) {
        s += static_cast<double>(node->dma->totals().*field);
      }
      return s;
    };
  };
  stats_->sum("packets_sent", "packets", "packets all DMA engines injected",
              sum(&dma::TorusDma::Totals::packets_sent));
  stats_->sum("bytes_sent", "B", "payload bytes all DMA engines injected",
              sum(&dma::TorusDma::Totals::bytes_sent));
  stats_->sum("packets_received", "packets", "packets all DMA engines received",
              sum(&dma::TorusDma::Totals::packets_received));
  stats_->sum("bytes_received", "B", "payload bytes all DMA engines received",
              sum(&dma::TorusDma::Totals::bytes_received));
  auto dma_sum = [this](uint64_t (dma::TorusDma::*total)() const) {
    return [this, total] {
      double s = 0;
      for (const ComputeNode* node : built_nodes()) {
        s += static_cast<double>((node->dma.get()->*total)());
      }
      return s;
    };
  };
  stats_->sum("counter_requests", "requests",
              "register accesses and decrements all counter banks took",
              dma_sum(&dma::TorusDma::counter_requests));
  stats_->sum("counter_slipped", "requests",
              "counter-bank requests that waited for a busy clock edge",
              dma_sum(&dma::TorusDma::counter_slipped));
  // Each bank reports its own port (CounterBankStats); large machines detach those, so the
  // felt contention is summed here too.
  auto banks_sum = [this](uint64_t (counters::CounterEdges::*count)() const) {
    return [this, count] {
      double s = 0;
      for (const ComputeNode* node : built_nodes()) {
        s += static_cast<double>((node->dma->injection_counters().edges().*count)());
        s += static_cast<double>((node->dma->reception_counters().edges().*count)());
      }
      return s;
    };
  };
  stats_->sum("counter_accesses_delayed", "accesses",
              "register accesses that waited for a busy counter-bank edge, all banks",
              banks_sum(&counters::CounterEdges::accesses_delayed));
  stats_->sum("counter_access_wait", "cycles",
              "DMA-clock cycles register accesses waited for busy counter-bank edges, all "
              "banks",
              banks_sum(&counters::CounterEdges::access_wait_edges));
}

// SystemC's module registry and a module's list of children look for what they remove from
// the front and move their last entry into its place; its port and process registries look
// from the newest end. Removing the slots first moves the newest modules into their places
// near the front: the kernel's own (it adds one when elaboration ends), then the newest
// node's. Destroying the nodes (and each node's parts) newest first then finds every module
// there, each removal moving the next one in, and every port and process at the newest end:
// linear, not quadratic.
TorusMachine::~TorusMachine() {
  teardown_slots_.clear();
  while (!nodes.empty()) nodes.pop_back();
}

ComputeNode& TorusMachine::node(int id) {
  if (id < 0 || id >= static_cast<int>(nodes.size()) || !nodes[static_cast<size_t>(id)]) {
    throw ModelError(fmt::format(
        "torus node {} is not built by this process (partition {} builds its nodes only)", id,
        partition->self()));
  }
  return *nodes[static_cast<size_t>(id)];
}

std::vector<ComputeNode*> TorusMachine::built_nodes() const {
  std::vector<ComputeNode*> v;
  for (const auto& node : nodes) {
    if (node) v.push_back(node.get());
  }
  return v;
}

std::vector<Core*> TorusMachine::cores() const {
  std::vector<Core*> v;
  for (const ComputeNode* node : built_nodes()) {
    for (Core* c : node->cores()) v.push_back(c);
  }
  return v;
}

}  // namespace hs::torus
