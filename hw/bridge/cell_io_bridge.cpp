#include "hw/bridge/cell_io_bridge.h"

#include "hw/dma/dma_interface.h"
#include "hw/hybrid/address_map.h"

namespace hs::bridge {

namespace amap = hybrid::amap;
using link::SplitLink;

CellIoBridge::CellIoBridge(sc_core::sc_module_name name, pcie::PcieLink& link,
                           cell::IoInterface& ioif, int dma_initiator, uint64_t host_window,
                           uint64_t host_window_size)
    : sc_module(name) {
  // The bridge's internal switch: 16 bytes a cycle at 500 MHz per port (8 GB/s each way, well
  // above the PCIe link and the interface), and the bridge's own latency.
  switch_ = std::make_unique<Crossbar>("switch", CrossbarDefaults{500e6, 16, 50});
  dma_ = std::make_unique<dma::DmaEngine>("dma", dma_initiator);
  link::TransactionPort& endpoint = link.port(SplitLink::B);
  switch_->connect(endpoint.out, "pcie", true);
  switch_->connect(ioif.to_device, "ioif");
  switch_->connect(dma_->bus, "dma");
  switch_->attach(endpoint.in, host_window, host_window_size, "host", true);
  // The Cell's own addresses go through unchanged.
  const int cell = switch_->attach(ioif.from_device, 0, amap::kAccDmaEngine, "cell", false, false);
  const uint64_t above = amap::kAccDmaEngine + dma::kRegisterSpan;
  switch_->alias(cell, above, host_window - above, "cell_above_dma", false, false);
  switch_->attach(dma_->registers().socket, amap::kAccDmaEngine, dma::kRegisterSpan, "dma_regs");
}

}  // namespace hs::bridge
