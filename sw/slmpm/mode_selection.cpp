#include "sw/slmpm/mode_selection.h"

#include <algorithm>
#include <stdexcept>

namespace hs::fw::slmpm {

namespace {

const std::vector<uint64_t>& links_of(Fabric f, const Monitored& m) {
  return f == Fabric::Pcie ? m.pcie_queue_bytes : m.ethernet_queue_bytes;
}

// Index of the least-loaded link, or -1 if there is none.
int least_loaded(const std::vector<uint64_t>& q) {
  if (q.empty()) return -1;
  return static_cast<int>(std::min_element(q.begin(), q.end()) - q.begin());
}

Fabric other(Fabric f) {
  return f == Fabric::Pcie ? Fabric::Ethernet : Fabric::Pcie;
}

}  // namespace

const char* to_string(Fabric f) {
  return f == Fabric::Pcie ? "pcie" : "ethernet";
}
const char* to_string(Protocol p) {
  return p == Protocol::Dma ? "dma" : "smt";
}

Mode select_mode(Operation op, uint64_t size, const AcceleratorId& id, const Monitored& m,
                 const Thresholds& t) {
  Mode mode;
  switch (id.form) {
    case AcceleratorId::Form::PcieId:
      mode.fabric = Fabric::Pcie;
      mode.reason = "PCIe ID";
      break;
    case AcceleratorId::Form::EthernetMac:
      mode.fabric = Fabric::Ethernet;
      mode.reason = "Ethernet MAC";
      break;
    case AcceleratorId::Form::Global:
      mode.fabric = t.default_fabric;
      mode.reason = "global ID: default fabric";
      break;
  }
  int link = least_loaded(links_of(mode.fabric, m));
  if (id.form == AcceleratorId::Form::Global) {
    const int alt = least_loaded(links_of(other(mode.fabric), m));
    const bool busy =
        link < 0 || links_of(mode.fabric, m)[static_cast<size_t>(link)] > t.queue_bytes;
    if (busy && alt >= 0 &&
        links_of(other(mode.fabric), m)[static_cast<size_t>(alt)] <= t.queue_bytes) {
      mode.fabric = other(mode.fabric);
      link = alt;
      mode.reason += ", every default link above the queue threshold: other fabric";
    }
  }
  if (link < 0) {
    throw std::invalid_argument(std::string("no ") + to_string(mode.fabric) +
                                " link to the destination");
  }
  mode.link = link;

  mode.protocol = op == Operation::Send ? Protocol::SharedMemory : Protocol::Dma;
  if (mode.fabric == Fabric::Ethernet) {
    mode.protocol = Protocol::SharedMemory;
    mode.reason += ", Ethernet carries writes only: SMT";
  } else if (size < t.dma_min_bytes) {
    mode.protocol = Protocol::SharedMemory;
    mode.reason += ", below the DMA size threshold: SMT";
  } else if (op == Operation::Send && m.shm_utilisation > t.shm_utilisation) {
    mode.protocol = Protocol::Dma;
    mode.reason += ", ring above the shared-memory threshold: DMA";
  }
  return mode;
}

}  // namespace hs::fw::slmpm
