// SLMPM mode selection: for each message, a mode = (fabric type, link, protocol) chosen from
// the destination's accelerator-ID form and monitored data, each compared with a threshold.
//
// - Fabric: a PCIe ID selects PCIe, an Ethernet MAC selects Ethernet, a global ID means the
//   default fabric, which may switch to the other fabric when every default link is loaded
//   beyond the queue threshold and the other fabric has a link that is not.
// - Link: the least-loaded link of the fabric (monitored transmit-queue depth in bytes).
// - Protocol: put and get default to DMA, send to shared memory (SMT). Messages smaller than
//   the DMA threshold go by SMT (setting up a DMA costs more than it saves); a send whose
//   ring is fuller than the shared-memory threshold goes by DMA. Ethernet carries writes
//   only, so everything on it is SMT (a get becomes a request the other side answers by SMT).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hs::fw::slmpm {

enum class Fabric { Pcie, Ethernet };
enum class Protocol { SharedMemory, Dma };
enum class Operation { Put, Send, Get };

struct AcceleratorId {
  enum class Form { PcieId, EthernetMac, Global };
  Form form = Form::Global;
  uint64_t value = 0;
};

struct Monitored {
  std::vector<uint64_t> pcie_queue_bytes;      // per PCIe link to the destination
  std::vector<uint64_t> ethernet_queue_bytes;  // per Ethernet link to the destination
  double shm_utilisation = 0;                  // (written - read) / N of the ring to it
};

struct Thresholds {
  uint64_t queue_bytes = 64 * 1024;  // a link busier than this is avoided if possible
  double shm_utilisation = 0.75;     // a send into a fuller ring goes by DMA
  uint64_t dma_min_bytes = 4096;     // smaller messages go by SMT
  Fabric default_fabric = Fabric::Pcie;
};

struct Mode {
  Fabric fabric = Fabric::Pcie;
  int link = 0;
  Protocol protocol = Protocol::SharedMemory;
  std::string reason;  // why, for traces and reports
};

// Throws std::invalid_argument if the chosen fabric has no link to the destination.
Mode select_mode(Operation op, uint64_t size, const AcceleratorId& id, const Monitored& m,
                 const Thresholds& t);

const char* to_string(Fabric f);
const char* to_string(Protocol p);

}  // namespace hs::fw::slmpm
