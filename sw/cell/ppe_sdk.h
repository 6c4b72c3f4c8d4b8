// The PPE's side of the Cell SDK (libspe2.h) carried out on an SPE's problem-state
// and privileged-2 registers (sw/hal/spe_mmio.h): contexts bound to the accelerator's SPEs,
// running a context to its stop, mailboxes, signal notification, proxy DMA and its tag-group
// query, the local store as an effective address. Firmware on the PPE calls these members
// directly; a user's PPE program will reach them through its runtime.
//
// Rules:
// - A context is one physical SPE: spe_context_create takes the lowest SPE no context holds
//   and fails (errno ENOMEM) when all are held; its flags set the signal registers' OR modes.
// - None of the registers stalls the PPE: a blocking call polls the SPE's status register
//   (each poll a load across the EIB) or sleeps on the SPE's PPE interrupt line, as its
//   comment says. Errors are libspe2's: -1 (or null) with errno set (EINVAL for a bad
//   argument, ESRCH for a context that is not live).
// - A PPE pointer becomes an effective address through EaAddress: for firmware the pointer's
//   value is the address in the accelerator's space; a user program translates its own.
// - spe_context_run starts the SPU at the entry (SPU_NPC, SPU_RunCntl), after writing the
//   speid, argp and envp words into the last 48 bytes of the local store (kRunParameters),
//   where the SPU's start-up reads them (run_spu_main); it sleeps on the SPE's line until the
//   SPU stops and reports SPE_EXIT with the program's exit code.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sw/hal/hal.h"

namespace hs::fw::cell_sdk {

using EaAddress = std::function<uint64_t(const void*)>;
uint64_t firmware_ea(const void* p);

// Where spe_context_run leaves the SPU program's three parameters: speid, argp, envp, one
// 16-byte quadword each (the value in the first 8 bytes), at the top of the local store.
constexpr uint32_t kRunParameters = 256 * 1024 - 48;

// libspe2's constants, with the values the SDK gives them under its names.
namespace spe {
constexpr unsigned kCfgSignotify1Or = 0x10, kCfgSignotify2Or = 0x20, kEventsEnable = 0x1000;
constexpr unsigned kEventOutIntrMbox = 0x1, kEventInMbox = 0x2, kEventTagGroup = 0x4,
                   kEventSpeStopped = 0x8, kEventAll = 0xF;
constexpr unsigned kMboxAllBlocking = 1, kMboxAnyBlocking = 2, kMboxAnyNonblocking = 3;
constexpr unsigned kSigNotifyReg1 = 1, kSigNotifyReg2 = 2;
constexpr unsigned kTagAll = 1, kTagAny = 2, kTagImmediate = 3;
constexpr unsigned kExit = 1;  // stop reason: the program returned or called exit
constexpr unsigned kDefaultEntry = 0xFFFFFFFFu;
constexpr int kCountPhysicalCpuNodes = 1, kCountPhysicalSpes = 2, kCountUsableSpes = 3;
}  // namespace spe

struct StopInfo {  // spe_stop_info_t's fields this model fills
  unsigned stop_reason = 0;
  int exit_code = 0;
  int spu_status = 0;
};

struct SpeContext {
  int spe = -1;  // the physical SPE
  unsigned flags = 0;
  bool live = true;
  bool stopped = false;  // a run has stopped: `last_stop` says how
  StopInfo last_stop;
  uint64_t runs = 0;  // runs started, and those whose stop an event reported
  uint64_t stops_reported = 0;
  uint32_t proxy_pending = 0;  // proxy tag groups used since their completion was last reported
};

// spe_event_unit_t's layout, with the context as this SDK's.
struct EventUnit {
  unsigned events = 0;
  SpeContext* spe = nullptr;
  uint64_t data = 0;
};
// An event handler: the events registered with it, per context.
struct EventHandler {
  struct Registration {
    SpeContext* spe;
    unsigned events;
    uint64_t data;
  };
  std::vector<Registration> registrations;
};

class Ppe {
 public:
  // `spes`: the SPEs of the PPE's Cell.
  Ppe(Hal& hal, int spes, EaAddress ea = firmware_ea);

  SpeContext* spe_context_create(unsigned flags, void* gang);
  int spe_context_destroy(SpeContext* spe);
  int spe_context_run(SpeContext* spe, unsigned* entry, unsigned runflags, void* argp, void* envp,
                      StopInfo* stopinfo);
  // How the context's latest run stopped (EINVAL before its first run has stopped).
  int spe_stop_info_read(SpeContext* spe, StopInfo* stopinfo);

  int spe_out_mbox_read(SpeContext* spe, unsigned* data, int count);
  int spe_out_mbox_status(SpeContext* spe);
  int spe_in_mbox_write(SpeContext* spe, unsigned* data, int count, unsigned behavior);
  int spe_in_mbox_status(SpeContext* spe);
  int spe_out_intr_mbox_read(SpeContext* spe, unsigned* data, int count, unsigned behavior);
  int spe_out_intr_mbox_status(SpeContext* spe);
  int spe_signal_write(SpeContext* spe, unsigned reg, unsigned data);

  int spe_mfcio_put(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                    unsigned tid, unsigned rid);
  int spe_mfcio_putb(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                     unsigned tid, unsigned rid);
  int spe_mfcio_putf(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                     unsigned tid, unsigned rid);
  int spe_mfcio_get(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                    unsigned tid, unsigned rid);
  int spe_mfcio_getb(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                     unsigned tid, unsigned rid);
  int spe_mfcio_getf(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                     unsigned tid, unsigned rid);
  int spe_mfcio_tag_status_read(SpeContext* spe, unsigned mask, unsigned behavior,
                                unsigned* tag_status);

  // Events (libspe2's): a handler collects what its registered contexts raise, and
  // spe_event_wait returns each as an EventUnit with the registration's data. Level-triggered
  // as the mailboxes are (an event stays while its condition holds: an entry in the outbound
  // interrupt mailbox, room in the inbound one); the stop of each run once (to whichever
  // handler waits first, as libspe2's per-context event queue); a proxy tag group
  // once when the commands issued on it since it was last reported (here or by
  // spe_mfcio_tag_status_read) have completed. The wait sleeps on the SPEs' PPE lines (the
  // stop and the outbound interrupt mailbox raise them) until its timeout; room in the inbound
  // mailbox and proxy completions raise no interrupt in the model, so a wait for them wakes
  // every kEventPollCycles to read the SPEs' status.
  static constexpr uint64_t kEventPollCycles = 1000;
  EventHandler* spe_event_handler_create();
  int spe_event_handler_destroy(EventHandler* handler);
  int spe_event_handler_register(EventHandler* handler, EventUnit* event);
  int spe_event_handler_deregister(EventHandler* handler, EventUnit* event);
  // `timeout_ms`: -1 waits without end, 0 returns at once.
  int spe_event_wait(EventHandler* handler, EventUnit* events, int max_events, int timeout_ms);

  // The local store's effective address (as a pointer, as libspe2 returns it) and size.
  void* spe_ls_area_get(SpeContext* spe);
  int spe_ls_size_get(SpeContext* spe);
  int spe_cpu_info_get(int info_requested, int cpu_node);

 private:
  bool live(const SpeContext* spe) const;
  int proxy(SpeContext* spe, uint32_t opcode, unsigned ls, void* ea, unsigned size, unsigned tag);
  bool live_handler(const EventHandler* h) const;
  // The events pending for `handler` now, into `out` (at most `max`).
  int poll_events(EventHandler& handler, EventUnit* out, int max);

  Hal& hal_;
  EaAddress ea_;
  std::vector<SpeContext> contexts_;  // one per SPE, live while held
  std::vector<std::unique_ptr<EventHandler>> handlers_;
};

// The SPU's side of spe_context_run, for firmware: waits until the PPE starts the SPU, reads
// its three parameters, runs `main` and stops with its result as the exit code; again for
// each run, until the run of the node ends.
using SpuMain = std::function<int(Hal& hal, uint64_t speid, uint64_t argp, uint64_t envp)>;
void run_spu_main(Hal& hal, const SpuMain& main, int runs);

}  // namespace hs::fw::cell_sdk
