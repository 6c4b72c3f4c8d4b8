// A descriptor-driven DMA engine: a bus master that fetches request descriptor lists from
// memory and moves data in chunks (reads then writes, so across PCIe it produces MRd/CplD or
// posted MWr TLPs), executing requests strictly in order. See dma_interface.h for the
// programming interface.
//
// The engine works as a pipeline, as hardware engines do: the read side walks the descriptors
// and gives each copy's chunks to `buffers` fetch units, each reading one chunk into its buffer
// (so up to `buffers` chunk reads are in flight at once); the write side writes the chunks out
// in order, each once its data is in, and frees its buffer when the write is done. A slow read
// path (a link's round trip) or a slow write path (a link's transmit buffer) thus overlaps the
// other rather than adding to it. Value writes (the completion-write idiom) and interrupt
// messages go through the write side too, so they follow every byte of the copies before
// them.
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
  // What the read side hands the write side, in order.
  struct WriteItem {
    enum Kind { Chunk, Value, Done } kind;
    uint64_t request = 0, descriptor = 0;  // what it belongs to (the error registers)
    uint64_t dst = 0;
    uint32_t len = 0;  // Chunk: bytes of buffer `buffer`; Value: 8 (a value) or 4 (a line)
    int buffer = -1;
    uint64_t value = 0;
    sc_core::sc_time start;  // Done: when the request started
    bool ready = true;       // Chunk: its data is in its buffer
    uint64_t src = 0;        // Chunk: where its data is read from
  };

  void submit(uint64_t request);
  void run();                   // the read side
  void fetch_unit(int buffer);  // reads the chunks given to buffer `buffer`
  void write_side();            // the write side
  // One bus access at the engine's local time (now + delay) on `txn`; advances delay. On an
  // error halts the engine, naming `request` and `descriptor`, and returns false.
  bool access(TaggedPayload<InitiatorExt>& txn, tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
              uint32_t len, sc_core::sc_time& delay, uint64_t request, uint64_t descriptor);
  bool execute(const Descriptor& d, uint64_t at, sc_core::sc_time& delay);
  void hand_over(WriteItem item);
  void finish(const WriteItem& done);
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
  TaggedPayload<InitiatorExt> txn_, write_txn_;  // the read side's and the write side's
  std::vector<std::vector<uint8_t>> buffers_;
  std::deque<int> free_buffers_;
  sc_core::sc_event buffer_freed_;
  std::deque<WriteItem> write_queue_;  // stable addresses: pushed at the back, popped at the front
  sc_core::sc_event write_queued_;     // an item was queued, or a chunk's data is in
  std::vector<WriteItem*> fetching_;   // per buffer: the chunk its unit is to read (or null)
  std::vector<std::unique_ptr<sc_core::sc_event>> fetch_;  // per buffer: a chunk to read
  // Per fetch unit. Owned here: a thread's stack is discarded without unwinding at the end of
  // the simulation, and the payloads must be destroyed properly.
  std::vector<std::unique_ptr<TaggedPayload<InitiatorExt>>> fetch_txn_;
  size_t started_ = 0;  // requests the read side has begun (the front ones, in order)
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
  sc_core::sc_time busy_until_;  // the end of the busy time counted so far
  Occupancy& queue_;
  Histogram& request_latency_;
  int track_;
  std::unique_ptr<DescriptorFaults> faults_;
};

}  // namespace hs::dma
