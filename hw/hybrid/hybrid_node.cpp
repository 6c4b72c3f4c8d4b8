#include "hw/hybrid/hybrid_node.h"

#include <fmt/format.h>

#include <type_traits>

#include "hw/hybrid/address_map.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::hybrid {

HybridNode::HybridNode(sc_core::sc_module_name name) : sc_module(name) {
  // First, so the node's links sort above its host and accelerators.
  TransactionTrace::instance().process(this->name(), std::string(this->name()) + " (links)");
  ParamScope p(this->name());
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
  host = std::make_unique<host::Host>("host", placement != "accelerator");
  const int n_acc = static_cast<int>(host->core_list.size()) * static_cast<int>(per_core);
  int next_core = static_cast<int>(host->core_list.size());
  for (int a = 0; a < n_acc; ++a) {
    auto acc = std::make_unique<cell::CellAccelerator>(fmt::format("acc{}", a).c_str(), next_core,
                                                       placement != "host");
    next_core += static_cast<int>(acc->cores().size());
    // A link of either fabric: its host side is a window onto the accelerator in the host's
    // map and a master on the host bus; its accelerator side the same, the other way round.
    // Neither fabric waits while taking what a link delivers: the host bus and the EIB
    // reach memories, registers, interrupt controllers and the links, and a link refuses at
    // once what another link delivered. So links deliver in place, without a thread switch.
    using Fabric = cell::CellAccelerator::HostFabric;
    auto connect = [&](auto& link, uint64_t acc_window, uint64_t host_window, Fabric fabric,
                       int l) {
      const char* f = fabric == Fabric::Pcie ? "pcie" : "eth";
      host->bus->attach(link.a_in, acc_window, amap::kAccWindowSize,
                        fmt::format("acc{}.{}{}", a, f, l));
      link.a_out.bind(host->bus->upstream);
      acc->attach_host_link(link.b_in, link.b_out, host_window, amap::kHostWindowSize,
                            fmt::format("host.{}{}", f, l), fabric);
      using Link = std::remove_reference_t<decltype(link)>;
      link.receiver_never_waits(Link::A);
      link.receiver_never_waits(Link::B);
    };
    for (int l = 0; l < pcie_per_acc; ++l) {
      const int k = a * pcie_per_acc + l;
      pcie_.push_back(std::make_unique<pcie::PcieLink>(fmt::format("pcie{}", k).c_str(), k));
      connect(*pcie_.back(), amap::acc_via_pcie(a, l), amap::host_via_pcie(l), Fabric::Pcie, l);
    }
    for (int l = 0; l < eth_per_acc; ++l) {
      const int k = a * eth_per_acc + l;
      eth_.push_back(std::make_unique<ethernet::EthernetLink>(fmt::format("eth{}", k).c_str(), k));
      connect(*eth_.back(), amap::acc_via_ethernet(a, l), amap::host_via_ethernet(l),
              Fabric::Ethernet, l);
    }
    accelerators.push_back(std::move(acc));
  }
}

std::vector<Core*> HybridNode::cores() const {
  std::vector<Core*> v = host->cores();
  for (const auto& a : accelerators) {
    for (Core* c : a->cores()) v.push_back(c);
  }
  return v;
}

}  // namespace hs::hybrid
