// The SPE's Memory Flow Controller: the DMA engine between its local store and the EIB.
//
// The SPU programs commands through registers (amap::mfc). Up to 16 commands queue; each
// moves up to 16 KiB, split into transfers that never cross a 128-byte boundary of the
// effective address. `outstanding` transfers are in flight at once, so bandwidth is set by
// whichever is tighter: the EIB and memory, or transfers in flight over their latency.
// Commands complete per tag group; completions and freed queue entries raise `irq` (bound to
// the SPU).
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm/bus/register_file.h"
#include "tlm/irq/interrupt_pin.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"

namespace hs::cell {

class Mfc : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Mfc> ea_port;  // to the EIB
  tlm_utils::simple_initiator_socket<Mfc> ls_port;  // to the SPE's local store

  IrqOut irq;  // amap::mfc::kIrqTagGroup, kIrqQueueSpace

  // `initiator_id`: the SPU's core index (transfers act for the SPU that queued them).
  Mfc(sc_core::sc_module_name name, int initiator_id, uint64_t local_store_bytes);
  RegisterFile& registers() { return regs_; }

  // Progress observers (a workload measuring its steady state): a transfer's bytes once its
  // data has landed; a command's enqueue and completion times once its last transfer has.
  using TransferWatch = std::function<void(uint32_t bytes, const sc_core::sc_time& at)>;
  using CommandWatch =
      std::function<void(const sc_core::sc_time& issued, const sc_core::sc_time& done)>;
  void watch_transfers(TransferWatch w) { transfer_watches_.push_back(std::move(w)); }
  void watch_commands(CommandWatch w) { command_watches_.push_back(std::move(w)); }

 private:
  struct Command {
    uint64_t id;
    uint32_t opcode, lsa, size, tag;
    uint64_t ea;
    uint32_t transfers_left;
    sc_core::sc_time issued;
  };
  struct Transfer {
    Command* cmd;
    uint32_t offset, len;
  };

  void enqueue(uint32_t opcode);
  // Returns an error description, or "" if the staged command is valid.
  std::string validate(uint32_t opcode) const;
  void worker(tlm::tlm_generic_payload& gp);
  // One half of a transfer at the worker's local time (now + delay); advances delay.
  void move(tlm_utils::simple_initiator_socket<Mfc>& port, tlm::tlm_command cmd, uint64_t addr,
            uint8_t* data, uint32_t len, const Command& c, tlm::tlm_generic_payload& gp,
            sc_core::sc_time& delay);
  void complete(Command& c);
  uint32_t tag_status() const;

  uint64_t ls_bytes_;
  RegisterFile regs_;
  uint32_t staged_lsa_ = 0, staged_size_ = 0, staged_tag_ = 0, tag_mask_ = 0, error_ = 0;
  uint64_t staged_ea_ = 0;
  uint64_t next_id_ = 0;
  std::list<Command> queue_;  // stable addresses while transfers are in flight
  std::deque<Transfer> transfers_;
  sc_core::sc_event transfer_ready_;
  std::array<uint32_t, 32> tag_outstanding_{};
  std::vector<std::unique_ptr<TaggedPayload<InitiatorExt>>> worker_payloads_;
  std::vector<TransferWatch> transfer_watches_;
  std::vector<CommandWatch> command_watches_;

  StatGroup stats_;
  Counter& gets_;
  Counter& puts_;
  Counter& bytes_in_;
  Counter& bytes_out_;
  Counter& transfers_done_;
  Occupancy& queue_depth_;
  Histogram& command_latency_;
  int track_;        // commands: async spans (the queue runs several at once)
  int depth_track_;  // commands in the queue
};

}  // namespace hs::cell
