#include "hw/hybrid/hybrid_node.h"

#include <fmt/format.h>

#include <type_traits>

#include "hw/hybrid/address_map.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::hybrid {

using link::SplitLink;

HybridNode::HybridNode(sc_core::sc_module_name name) : sc_module(name) {
  // First, so the node's links sort above its host and accelerators.
  TransactionTrace::instance().process(this->name(), std::string(this->name()) + " (links)");
  ParamScope p(this->name());
  topology_ =
      p.choice("topology", "direct",
               "how the accelerators attach: direct (each accelerator's PCIe link from the host's "
               "root complex straight into its Cell) or roadrunner (the TriBlade: each socket's "
               "HyperTransport link to an HT-to-PCIe bridge, a PCIe link to each Cell's I/O "
               "bridge, and the Cell's I/O interface)",
               {"direct", "roadrunner"}) == "roadrunner"
          ? Topology::Roadrunner
          : Topology::Direct;
  const auto per_core =
      p.integer("accelerators_per_core", 1, "", "Cell accelerators per host core (1:1, 1:2 or 1:3)",
                Range::between(1, 3));
  pcie_per_acc = static_cast<int>(p.integer(
      "pcie_links_per_accelerator", 1, "", "PCIe links to each accelerator", Range::between(1, 4)));
  eth_per_acc =
      static_cast<int>(p.integer("ethernet_links_per_accelerator", 1, "",
                                 "Ethernet links to each accelerator", Range::between(0, 4)));
  const std::string placement =
      p.choice("dma_engines", "accelerator",
               "where descriptor DMA engines sit: on each accelerator (the host asks them for "
               "remote GETs), on the host, or both",
               {"accelerator", "host", "both"});
  acc_dma_ = placement != "host";
  if (topology_ == Topology::Direct) {
    build_direct(static_cast<int>(per_core), placement != "accelerator");
    return;
  }
  // The TriBlade's counts are fixed: refuse a parameter that asks for another shape.
  auto refuse = [&](const char* leaf, int64_t value, int64_t want, const char* what) {
    if (value == want) return;
    throw InputError(ParamRegistry::instance().refusal(
        p.name(leaf), fmt::format("= {}: the roadrunner topology is the TriBlade, with {} (set "
                                  "{} = direct for other shapes)",
                                  value, what, p.name("topology"))));
  };
  refuse("accelerators_per_core", per_core, 1, "one accelerator per host core");
  refuse("pcie_links_per_accelerator", pcie_per_acc, 1, "one PCIe x8 link per accelerator");
  build_roadrunner(placement != "accelerator");
}

HybridNode::~HybridNode() = default;

void HybridNode::add_ethernet(int a, int socket) {
  for (int l = 0; l < eth_per_acc; ++l) {
    const int k = a * eth_per_acc + l;
    eth_.push_back(std::make_unique<ethernet::EthernetLink>(fmt::format("eth{}", k).c_str(), k));
    ethernet::EthernetLink& link = *eth_.back();
    const std::string window = fmt::format("acc{}_eth{}", a, l);
    host->attach_io(socket, link.a_in, amap::acc_via_ethernet(a, l), amap::kAccWindowSize, window,
                    true);
    host->connect_io(socket, link.a_out, window + "_inbound");
    accelerators[static_cast<size_t>(a)]->attach_host_link(
        link.b_in, link.b_out, amap::host_via_ethernet(l), amap::kHostWindowSize,
        fmt::format("host.eth{}", l), cell::CellAccelerator::HostFabric::Ethernet);
    // Neither fabric waits while taking what the link delivers: the host's northbridge and the
    // EIB reach memories, registers, interrupt controllers and the links, and a link refuses at
    // once what another link delivered. So the link delivers in place.
    link.receiver_never_waits(ethernet::EthernetLink::A);
    link.receiver_never_waits(ethernet::EthernetLink::B);
  }
}

void HybridNode::build_direct(int per_core, bool host_dma) {
  host = std::make_unique<host::Host>("host", host_dma, host::Host::Layout::Shared);
  const int n_acc = static_cast<int>(host->core_list.size()) * per_core;
  int next_core = static_cast<int>(host->core_list.size());
  for (int a = 0; a < n_acc; ++a) {
    accelerators.push_back(std::make_unique<cell::CellAccelerator>(
        fmt::format("acc{}", a).c_str(), next_core, acc_dma_, cell::CellAccelerator::Io::Links));
    cell::CellAccelerator& acc = *accelerators.back();
    next_core += static_cast<int>(acc.cores().size());
    const int socket = host->socket_of(a / per_core);
    // Each PCIe link: its host side a window onto the accelerator in the host's map and an I/O
    // port of the root complex; its accelerator side the same, the other way round, at IOIF0.
    for (int l = 0; l < pcie_per_acc; ++l) {
      const int k = a * pcie_per_acc + l;
      pcie_.push_back(std::make_unique<pcie::PcieLink>(fmt::format("pcie{}", k).c_str(), k));
      pcie::PcieLink& link = *pcie_.back();
      link::TransactionPort& root = link.port(SplitLink::A);
      link::TransactionPort& endpoint = link.port(SplitLink::B);
      const std::string window = fmt::format("acc{}_pcie{}", a, l);
      host->attach_io(socket, root.in, amap::acc_via_pcie(a, l), amap::kAccWindowSize, window,
                      true);
      host->connect_io(socket, root.out, window + "_inbound");
      acc.attach_host_link(endpoint.in, endpoint.out, amap::host_via_pcie(l), amap::kHostWindowSize,
                           fmt::format("host.pcie{}", l), cell::CellAccelerator::HostFabric::Pcie);
      root.fabric_never_waits();
      endpoint.fabric_never_waits();
    }
    add_ethernet(a, socket);
  }
}

void HybridNode::build_roadrunner(bool host_dma) {
  host = std::make_unique<host::Host>("host", host_dma, host::Host::Layout::PerSocket);
  if (host->cores_per_socket() != 2) {
    throw InputError(ParamRegistry::instance().refusal(
        std::string(host->name()) + ".cores_per_socket",
        fmt::format("= {}: the roadrunner topology is the TriBlade, with dual-core Opterons (set "
                    "{}.topology = direct for other shapes)",
                    host->cores_per_socket(), name())));
  }
  constexpr int kCellsPerBridge = 2;  // one QS22 blade's two PowerXCell 8i per socket
  int next_core = static_cast<int>(host->core_list.size());
  for (int s = 0; s < host->sockets(); ++s) {
    ht_.push_back(std::make_unique<ht::HtLink>(
        fmt::format("ht{}", s).c_str(), s, SplitLink::Attach::Fabric, SplitLink::Attach::Packets));
    ht::HtLink& ht = *ht_.back();
    // What the link delivers may go on into the coherent link, which can make it wait: the
    // link delivers on a thread.
    link::TransactionPort& socket_end = ht.port(SplitLink::A);
    host->connect_io(s, socket_end.out, fmt::format("ht{}_inbound", s));
    std::vector<pcie::PcieLink*> links;
    std::vector<uint64_t> windows;
    int port = -1;
    for (int i = 0; i < kCellsPerBridge; ++i) {
      const int a = s * kCellsPerBridge + i;
      accelerators.push_back(std::make_unique<cell::CellAccelerator>(
          fmt::format("acc{}", a).c_str(), next_core, false, cell::CellAccelerator::Io::Bridge));
      cell::CellAccelerator& acc = *accelerators.back();
      const int dma_initiator = next_core + static_cast<int>(acc.cores().size());
      next_core = dma_initiator;
      // HyperTransport carries host physical addresses: the bridge finds the accelerator.
      const uint64_t window = amap::acc_via_pcie(a, 0);
      const std::string window_name = fmt::format("acc{}_pcie0", a);
      if (port < 0) {
        port = host->attach_io(s, socket_end.in, window, amap::kAccWindowSize, window_name, false);
      } else {
        host->alias_io(s, port, window, amap::kAccWindowSize, window_name, false);
      }
      pcie_.push_back(std::make_unique<pcie::PcieLink>(fmt::format("pcie{}", a).c_str(), a,
                                                       SplitLink::Attach::Packets,
                                                       SplitLink::Attach::Fabric));
      pcie::PcieLink& link = *pcie_.back();
      link.port(SplitLink::B).fabric_never_waits();  // the bridge's switch, IOIF0, the EIB
      io_bridges_.push_back(std::make_unique<bridge::CellIoBridge>(
          fmt::format("iobridge{}", a).c_str(), link, *acc.ioif0, dma_initiator,
          amap::host_via_pcie(0), amap::kHostWindowSize));
      links.push_back(&link);
      windows.push_back(window);
      add_ethernet(a, 0);
    }
    bridges_.push_back(std::make_unique<bridge::HtPcieBridge>(
        fmt::format("bridge{}", s).c_str(), ht, links, windows, amap::kAccWindowSize));
  }
}

dma::DmaEngine* HybridNode::accelerator_dma(int acc) {
  if (!acc_dma_) return nullptr;
  if (topology_ == Topology::Roadrunner) return &io_bridges_[static_cast<size_t>(acc)]->dma();
  return accelerators[static_cast<size_t>(acc)]->dma.get();
}

std::vector<Core*> HybridNode::cores() const {
  std::vector<Core*> v = host->cores();
  for (const auto& a : accelerators) {
    for (Core* c : a->cores()) v.push_back(c);
  }
  return v;
}

}  // namespace hs::hybrid
