#include "hw/host/host.h"

#include <fmt/format.h>

#include "hw/hybrid/address_map.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::host {

namespace amap = hybrid::amap;

namespace {
// The Opteron's northbridge: 8 bytes per cycle per port at the core clock (its crossbar runs
// with the cores), and a pass through it.
constexpr CrossbarDefaults kNorthbridge{1.8e9, 8, 20};
// DDR2-667, two channels, per memory controller.
constexpr double kDramLatencyNs = 80, kDramGBps = 10.6;
}  // namespace

Host::Host(sc_core::sc_module_name name, bool dma_engine, Layout layout)
    : sc_module(name), layout_(layout) {
  TransactionTrace::instance().process(this->name(), std::string(this->name()) + " (host)");
  ParamScope p(this->name());
  sockets_ =
      static_cast<int>(p.integer("sockets", 2, "", "processor sockets", Range::between(1, 8)));
  per_socket_ = static_cast<int>(
      p.integer("cores_per_socket", 2, "", "cores per socket", Range::between(1, 16)));
  const double clock =
      p.real("clock", 1.8e9, "Hz", "core clock (Opteron class)", Range::between(1e8, 1e10));
  if (layout_ == Layout::PerSocket && sockets_ != 2) {
    throw InputError(ParamRegistry::instance().refusal(
        p.name("sockets"), fmt::format("= {}: a host with a northbridge per socket has two "
                                       "sockets joined by one coherent link",
                                       sockets_)));
  }
  const int bridges = layout_ == Layout::Shared ? 1 : sockets_;
  for (int s = 0; s < bridges; ++s) {
    xbars_.push_back(std::make_unique<Crossbar>(
        layout_ == Layout::Shared ? "bus" : fmt::format("xbar{}", s).c_str(), kNorthbridge));
  }
  // Memory: one DRAM behind the shared northbridge, or one per socket, the second after the
  // first in the physical address space.
  const uint64_t total = uint64_t{16} << 30;
  const uint64_t per_dram = layout_ == Layout::Shared ? total : total / 2;
  dram = std::make_unique<Memory>(
      "dram", MemoryDefaults{per_dram, kDramLatencyNs, kDramGBps, amap::kHostDramMax});
  northbridge(0).attach(dram->socket, amap::kHostDram, dram->size(), "dram");
  if (layout_ == Layout::PerSocket) {
    const uint64_t base1 = amap::kHostDram + dram->size();
    dram1 = std::make_unique<Memory>(
        "dram1", MemoryDefaults{per_dram, kDramLatencyNs, kDramGBps, amap::kHostDramMax - base1});
    northbridge(1).attach(dram1->socket, base1, dram1->size(), "dram");
  }
  for (int s = 0; s < sockets_; ++s) {
    for (int c = 0; c < per_socket_; ++c) {
      const int index = static_cast<int>(core_list.size());
      auto core = std::make_unique<Core>(fmt::format("core{}", index).c_str(), clock, index);
      northbridge(s).connect(core->bus, fmt::format("core{}", index));
      core_list.push_back(std::move(core));
    }
  }
  // MSI doorbells: core c's at kHostIrq + c x stride, on the northbridge that serves it.
  for (int b = 0; b < bridges; ++b) {
    const int first = layout_ == Layout::Shared ? 0 : b * per_socket_;
    const int n = layout_ == Layout::Shared ? static_cast<int>(core_list.size()) : per_socket_;
    std::vector<Core*> served;
    for (int c = first; c < first + n; ++c) served.push_back(core_list[c].get());
    irq.push_back(std::make_unique<InterruptController>(
        bridges == 1 ? "irq" : fmt::format("irq{}", b).c_str(), served));
    xbars_[b]->attach(irq.back()->socket(), amap::kHostIrq + first * amap::kDoorbellStride,
                      n * amap::kDoorbellStride, "irq");
  }
  if (dma_engine) {
    dma = std::make_unique<dma::DmaEngine>("dma", static_cast<int>(core_list.size()));
    northbridge(0).connect(dma->bus, "dma");
    northbridge(0).attach(dma->registers().socket, amap::kHostDmaEngine, dma::kRegisterSpan,
                          "dma_regs");
  }
  if (layout_ == Layout::PerSocket) {
    // The coherent link: each socket reaches the other's memory, doorbells and DMA engine
    // through it (probe traffic is not modelled).
    ht::HtConfig coherent;
    coherent.coherent = true;
    cht = std::make_unique<ht::HtLink>("cht", -1, link::SplitLink::Attach::Fabric,
                                       link::SplitLink::Attach::Fabric, coherent);
    link::TransactionPort* ends[2] = {&cht->port(link::SplitLink::A),
                                      &cht->port(link::SplitLink::B)};
    // A northbridge may pass what the link delivers on into an I/O link, whose transmitter
    // can make it wait: the link delivers on a thread.
    for (int s = 0; s < 2; ++s) northbridge(s).connect(ends[s]->out, "cht_inbound");
    const uint64_t dram1_base = amap::kHostDram + dram->size();
    cht_port_.resize(2);
    cht_port_[0] =
        northbridge(0).attach(ends[0]->in, dram1_base, dram1->size(), "cht_outbound", false, false);
    northbridge(0).alias(cht_port_[0], amap::kHostIrq + per_socket_ * amap::kDoorbellStride,
                         per_socket_ * amap::kDoorbellStride, "cht_irq", false, false);
    cht_port_[1] = northbridge(1).attach(ends[1]->in, amap::kHostDram, dram->size(), "cht_outbound",
                                         false, false);
    northbridge(1).alias(cht_port_[1], amap::kHostIrq, per_socket_ * amap::kDoorbellStride,
                         "cht_irq", false, false);
    if (dma) {
      northbridge(1).alias(cht_port_[1], amap::kHostDmaEngine, dma::kRegisterSpan, "cht_dma", false,
                           false);
    }
  }
}

int Host::attach_io(int socket, TargetSocket& target, uint64_t base, uint64_t size,
                    const std::string& window_name, bool translate) {
  const int port = northbridge(socket).attach(target, base, size, window_name, true, translate);
  alias_io(socket, -1, base, size, window_name, translate);
  return port;
}

void Host::alias_io(int socket, int port, uint64_t base, uint64_t size,
                    const std::string& window_name, bool translate) {
  if (port >= 0) northbridge(socket).alias(port, base, size, window_name, true, translate);
  if (layout_ != Layout::PerSocket) return;
  const int other = 1 - socket;
  northbridge(other).alias(cht_port_[static_cast<size_t>(other)], base, size, window_name, true,
                           false);
}

std::vector<Core*> Host::cores() const {
  std::vector<Core*> v;
  for (const auto& c : core_list) v.push_back(c.get());
  return v;
}

}  // namespace hs::host
