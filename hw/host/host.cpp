#include "hw/host/host.h"

#include <fmt/format.h>

#include "hw/hybrid/address_map.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::host {

namespace amap = hybrid::amap;

Host::Host(sc_core::sc_module_name name, bool dma_engine) : sc_module(name) {
  TransactionTrace::instance().process(this->name(), std::string(this->name()) + " (host)");
  ParamScope p(this->name());
  const auto sockets = p.integer("sockets", 2, "", "processor sockets", Range::between(1, 8));
  const auto per_socket =
      p.integer("cores_per_socket", 2, "", "cores per socket", Range::between(1, 16));
  const double clock =
      p.real("clock", 1.8e9, "Hz", "core clock (Opteron class)", Range::between(1e8, 1e10));
  // HyperTransport to the northbridge and root complex.
  bus = std::make_unique<Router>("bus", 20.0);
  // DDR2-667, two channels.
  dram = std::make_unique<Memory>(
      "dram", MemoryDefaults{uint64_t{16} << 30, 80.0, 10.6, amap::kHostDramMax});
  bus->attach(dram->socket, amap::kHostDram, dram->size(), "dram");
  for (int s = 0; s < sockets; ++s) {
    for (int c = 0; c < per_socket; ++c) {
      const int index = static_cast<int>(core_list.size());
      auto core = std::make_unique<Core>(fmt::format("core{}", index).c_str(), clock, index);
      core->bus.bind(bus->upstream);
      core_list.push_back(std::move(core));
    }
  }
  irq = std::make_unique<InterruptController>("irq", cores());
  bus->attach(irq->socket(), amap::kHostIrq, 0x1000, "irq");
  if (dma_engine) {
    dma = std::make_unique<dma::DmaEngine>("dma", static_cast<int>(core_list.size()));
    dma->bus.bind(bus->upstream);
    bus->attach(dma->registers().socket, amap::kHostDmaEngine, dma::kRegisterSpan, "dma");
  }
}

std::vector<Core*> Host::cores() const {
  std::vector<Core*> v;
  for (const auto& c : core_list) v.push_back(c.get());
  return v;
}

}  // namespace hs::host
