#include "hw/cell/cell_accelerator.h"

#include <fmt/format.h>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::cell {

namespace amap = hybrid::amap;

CellAccelerator::CellAccelerator(sc_core::sc_module_name name, int first_core_index,
                                 bool dma_engine, Io io)
    : sc_module(name) {
  TransactionTrace::instance().process(this->name(), std::string(this->name()) + " (Cell)");
  ParamScope p(this->name());
  clock_hz = p.real("clock", 3.2e9, "Hz", "PPE and SPU clock (the EIB runs at half)",
                    Range::between(1e8, 1e10));
  const auto spe_count = p.integer("spes", 8, "", "SPEs on this accelerator", Range::between(1, 8));
  // IBM's Cell blades run their timebase at 14.318 MHz (a PlayStation 3 at 79.8 MHz).
  timebase_hz =
      p.real("timebase", 14.318e6, "Hz", "timebase: the rate the SPU decrementers count at",
             Range::between(1e3, 1e10));
  eib = std::make_unique<Eib>("eib", clock_hz);
  eib->set_snoop(&reservations);
  // PowerXCell 8i: 25.6 GB/s DDR2 memory interface.
  dram = std::make_unique<Memory>("dram",
                                  MemoryDefaults{uint64_t{4} << 30, 90.0, 25.6, amap::kAccDramMax});
  ppe = std::make_unique<Core>("ppe", clock_hz, first_core_index);
  eib->connect(ppe->bus, Element::PPE);
  ppe_irq_.bind(*ppe);
  eib->attach(dram->socket, amap::kAccDram, dram->size(), "dram", Element::MIC);
  for (int s = 0; s < spe_count; ++s) {
    auto spe =
        std::make_unique<Spe>(fmt::format("spe{}", s).c_str(), clock_hz, first_core_index + 1 + s,
                              spe_element(s), reservations, timebase_hz);
    // The SPE's class-2 interrupt reaches the PPE on the SPE's own line.
    ppe_lines_.push_back(
        std::make_unique<IrqRenumber>(ppe_irq_, [s](unsigned) { return spe::ppe_line(s); }));
    spe->channels.ppe_irq.bind(*ppe_lines_.back());
    eib->connect(spe->mfc.ea_port, spe_element(s));
    eib->attach(spe->local_bus.upstream, amap::acc_spe(s), amap::kAccSpeStride,
                fmt::format("spe{}", s), spe_element(s));
    spes.push_back(std::move(spe));
  }
  irq = std::make_unique<InterruptController>("irq", cores());
  eib->attach(irq->socket(), amap::kAccIrq, 0x1000, "irq", Element::PPE);
  if (io == Io::Bridge) {
    // The host through PCIe link 0 and the bridge's DMA engine both lie beyond IOIF0.
    ioif0 = std::make_unique<IoInterface>("ioif0");
    eib->connect(ioif0->to_eib, Element::IOIF0);
    // The bridge decodes the Cell's own addresses itself.
    eib->attach(ioif0->from_eib, amap::host_via_pcie(0), amap::kHostWindowSize, "host.pcie0",
                Element::IOIF0, false);
    eib->attach(ioif0->from_eib, amap::kAccDmaEngine, dma::kRegisterSpan, "io_bridge.dma",
                Element::IOIF0, false);
  }
  if (dma_engine) {
    dma =
        std::make_unique<dma::DmaEngine>("dma", first_core_index + 1 + static_cast<int>(spe_count));
    eib->connect(dma->bus, Element::IOIF0);
    eib->attach(dma->registers().socket, amap::kAccDmaEngine, dma::kRegisterSpan, "dma",
                Element::IOIF0);
  }
}

std::vector<Core*> CellAccelerator::cores() {
  std::vector<Core*> v{ppe.get()};
  for (auto& s : spes) v.push_back(&s->spu);
  return v;
}

}  // namespace hs::cell
