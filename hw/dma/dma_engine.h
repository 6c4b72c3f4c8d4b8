// A descriptor-driven DMA engine: a bus master that fetches request descriptor lists from
// memory and moves data in chunks (reads then writes, so across PCIe it produces MRd/CplD or
// posted MWr TLPs), executing requests strictly in order. See dma_interface.h for the
// programming interface.
//
// Faults (off by default, hw/dma/descriptor_faults.h): `bad_descriptor_*` points a fetched
// descriptor's address at kPoisonAddress (the engine takes its error path and halts);
// `stall_*` stops the engine for good at a descriptor. A LivenessCheck fails the run when the
// engine has requests outstanding and makes no progress for `liveness_timeout`.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/dma/descriptor_faults.h"
#include "hw/dma/dma_interface.h"
#include "tlm/bus/register_file.h"
#include "tlm/check/liveness.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"

namespace hs::dma {

class DmaEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> bus;

  SC_HAS_PROCESS(DmaEngine);
  DmaEngine(sc_core::sc_module_name name, int initiator_id);
  RegisterFile& registers() { return regs_; }
  uint32_t completed() const { return completed_; }

 private:
  void submit(uint64_t request);
  void run();
  // One bus access at the engine's local time (now + delay); advances delay. False on error.
  bool access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len,
              sc_core::sc_time& delay);
  bool execute(const Descriptor& d, uint64_t at, sc_core::sc_time& delay);
  void reject(Error code, const std::string& why);
  // A failed access: sets the error registers and halts (firmware polling reports it).
  void halt_on_bus_error(uint64_t addr, const std::string& why);
  // Applies the descriptor faults to a fetched descriptor; stalls for good on a stall.
  void inject_faults(Descriptor& d);
  std::string outstanding() const;

  Clock clock_;
  uint64_t descriptor_cycles_;
  uint32_t chunk_;
  uint32_t queue_depth_;
  RegisterFile regs_;
  TaggedPayload<InitiatorExt> txn_;
  std::vector<uint8_t> buffer_;
  std::deque<std::pair<uint64_t, sc_core::sc_time>> requests_;  // address, submitted at
  sc_core::sc_event submitted_;
  uint32_t completed_ = 0;
  uint32_t error_ = kNoError;
  uint64_t irq_address_ = 0;
  HaltRecord halt_;
  uint64_t current_request_ = 0, current_descriptor_ = 0;
  sc_core::sc_event never_;  // what a stalled engine waits for
  std::unique_ptr<LivenessCheck> liveness_;

  StatGroup stats_;
  Counter& requests_done_;
  Counter& descriptors_;
  Counter& bytes_copied_;
  Counter& writes_;
  BusyTime& busy_;
  Occupancy& queue_;
  Histogram& request_latency_;
  int track_;
  std::unique_ptr<DescriptorFaults> faults_;
};

}  // namespace hs::dma
