// The SPU's channel interface (spe_interface.h says how the model presents it), and the state
// behind the channels that are not the MFC's: mailboxes, signal notification, the
// decrementer and the SPU's events.
//
// - Mailboxes: inbound 4 entries (PPE -> SPU), outbound and outbound-interrupt 1 each. The
//   SPU stalls reading an empty one or writing a full one. The other side reaches them by
//   MMIO (problem_state.h) and never stalls: it reads their status; a write into a full
//   inbound mailbox overwrites its newest entry; a read of an empty outbound one returns its
//   last value again. Writing the outbound-interrupt mailbox interrupts the PPE.
// - Signal notification: two 32-bit registers, each in overwrite or OR mode (SPU_Cfg bits 0
//   and 1). A write (MMIO, or an SNDSIG from any MFC) sets or ORs into one; the SPU's read
//   returns it and clears it, and stalls while it is clear.
// - Decrementer: 32 bits counting down at the accelerator's timebase from whatever the SPU
//   wrote last; the decrementer event fires as it passes from 0 to -1 after a write (once: a
//   wrap 2^32 ticks later is not an event). It is timed only while the event is enabled in
//   the mask, so an unwatched decrementer never keeps a run going.
// - Events: a source sets its bit in the event status; the SPU reads status & mask (stalling
//   while that is 0) and acknowledges bits to clear them. Set by: an entry arriving in the
//   inbound mailbox; the PPE reading the outbound or outbound-interrupt mailbox (room again);
//   a signal written; an "any" or "all" tag-status request satisfied; a list stalled; the
//   SPU's command queue leaving full; the decrementer passing zero; the lock-line reservation
//   lost.
// - Run control: SPU_RunCntl, SPU_Status and SPU_NPC as the PPE sees them, and the SPU's
//   run control in its own view (spe::ctl): a program loader on the SPU waits for the run
//   request, runs the program, and stops with a code (stop-and-signal), interrupting the PPE.
// Every channel access costs `channel_latency`; a data access at count 0 is refused (the SPU
// would stall forever), naming the channel.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <systemc>

#include "hw/cell/mfc.h"
#include "hw/cell/spe_interface.h"
#include "tlm/bus/register_file.h"
#include "tlm/irq/interrupt_pin.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"

namespace hs::cell {

class SpuChannels : public sc_core::sc_module, public MfcListener {
 public:
  SpuChannels(sc_core::sc_module_name name, const std::string& spe_name, Mfc& mfc,
              double timebase_hz);

  IrqOut spu_irq;  // to the SPU: line c when channel c's count becomes non-zero; spe::kRunLine
  IrqOut ppe_irq;  // the SPE's class-2 interrupt (line 0): outbound-interrupt mailbox written,
                   // SPU stopped, proxy tag-group query satisfied
  tlm::tlm_target_socket<>& channels() { return regs_.socket; }         // amap::kSpeChannels
  tlm::tlm_target_socket<>& control() { return control_regs_.socket; }  // amap::kSpeControl

  // The MMIO side (problem_state.h).
  void mmio_write_in_mbox(uint32_t v);
  uint32_t mmio_read_out_mbox() { return take_outbound(out_mbox_); }
  uint32_t mmio_read_out_intr_mbox() { return take_outbound(out_intr_mbox_); }
  uint32_t mbox_stat() const;
  void write_signal(int reg, uint32_t v);  // reg 1 or 2
  uint32_t signal(int reg) const { return reg == 1 ? signal_[0] : signal_[1]; }
  void set_config(uint64_t cfg) { config_ = cfg; }
  uint64_t config() const { return config_; }
  void run_control(uint32_t v);
  uint32_t run_control() const { return run_requested_ ? 1 : 0; }
  uint32_t status() const { return status_; }
  void set_npc(uint32_t v) { npc_ = v; }
  uint32_t npc() const { return npc_; }

  // MfcListener
  void channel_ready(unsigned channel) override;
  void raise_events(uint32_t events) override;
  void proxy_query_done() override;

 private:
  // An outbound mailbox: its entry, the value read last (read again while it is empty), the
  // channel whose count a read frees and the event it sets.
  struct OutMailbox {
    std::optional<uint32_t> entry;
    uint32_t last;
    unsigned channel;
    uint32_t event;
  };
  uint32_t take_outbound(OutMailbox& m);
  uint32_t count(unsigned channel) const;
  uint32_t pending_events() const { return events_ & event_mask_; }
  void refuse(unsigned channel, const char* what) const;
  void define_channel(unsigned channel, RegisterFile::ReadFn read, RegisterFile::WriteFn write);
  void write_decrementer(uint32_t v);
  uint32_t decrementer() const;
  void schedule_decrementer();
  void decrementer_passed_zero();

  std::string spe_name_;
  Mfc& mfc_;
  RegisterFile regs_;
  RegisterFile control_regs_;
  Clock timebase_;
  // MFC command staging (channels MFC_LSA ... MFC_TagID).
  uint32_t lsa_ = 0, eah_ = 0, eal_ = 0, size_ = 0, tag_ = 0;
  std::deque<uint32_t> in_mbox_;
  OutMailbox out_mbox_{std::nullopt, 0, spe::ch::kWrOutMbox, spe::event::kOutMboxAvailable};
  OutMailbox out_intr_mbox_{std::nullopt, 0, spe::ch::kWrOutIntrMbox,
                            spe::event::kOutIntrMboxAvailable};
  uint32_t signal_[2] = {0, 0};
  bool signal_pending_[2] = {false, false};
  uint64_t config_ = 0;
  uint32_t events_ = 0, event_mask_ = 0;
  uint32_t dec_written_ = 0;
  uint64_t dec_tick_ = 0;       // the timebase tick at which it was written
  uint64_t dec_zero_tick_ = 1;  // the tick at which it passes from 0 to -1
  bool dec_fired_ = false;
  sc_core::sc_event dec_zero_;
  bool run_requested_ = false;
  uint32_t status_ = 0;
  uint32_t npc_ = 0;

  StatGroup stats_;
  Counter& in_mbox_writes_;
  Counter& in_mbox_overwrites_;
  Counter& out_mbox_writes_;
  Counter& out_intr_mbox_writes_;
  Counter& signals_;
  Counter& events_raised_;
};

}  // namespace hs::cell
