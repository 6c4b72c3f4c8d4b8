#include "sw/cell/ppe_sdk.h"

#include <algorithm>
#include <cerrno>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/irq_wait.h"
#include "sw/hal/spe_mmio.h"
#include "sw/hal/spu.h"

namespace hs::fw::cell_sdk {

namespace ps = cell::spe::ps;
namespace op = cell::spe::op;
namespace amap = hybrid::amap;

namespace {
// The exit convention: a program that ends stops the SPU with 0x2000 + its status's low byte.
constexpr uint32_t kNormalEnd = 0x2000;
constexpr uint64_t kLsBytes = 256 * 1024;

spe_mmio::Spe regs(const SpeContext* c) {
  return {0, c->spe};
}
int fail(int err) {
  errno = err;
  return -1;
}
bool mailbox_behavior(unsigned b) {
  return b == spe::kMboxAllBlocking || b == spe::kMboxAnyBlocking || b == spe::kMboxAnyNonblocking;
}
// Whether a mailbox call that found no room (or no entry) returns with the `n` it has moved.
bool gives_up(unsigned behavior, int n) {
  return behavior == spe::kMboxAnyNonblocking || (behavior == spe::kMboxAnyBlocking && n > 0);
}
}  // namespace

uint64_t firmware_ea(const void* p) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
}

Ppe::Ppe(Hal& hal, int spes, EaAddress ea) : hal_(hal), ea_(std::move(ea)) {
  contexts_.resize(static_cast<size_t>(spes));
  for (int i = 0; i < spes; ++i) contexts_[static_cast<size_t>(i)] = {i, 0, false, false, {}};
}

bool Ppe::live(const SpeContext* spe) const {
  return spe != nullptr && spe >= contexts_.data() && spe < contexts_.data() + contexts_.size() &&
         spe->live;
}

SpeContext* Ppe::spe_context_create(unsigned flags, void* gang) {
  if (gang != nullptr) {
    errno = EINVAL;  // gangs are not modelled
    return nullptr;
  }
  for (SpeContext& c : contexts_) {
    if (c.live) continue;
    c.live = true;
    c.stopped = false;
    c.flags = flags;
    spe_mmio::set_signal_or_mode(hal_, regs(&c), (flags & spe::kCfgSignotify1Or) != 0,
                                 (flags & spe::kCfgSignotify2Or) != 0);
    return &c;
  }
  errno = ENOMEM;
  return nullptr;
}

int Ppe::spe_context_destroy(SpeContext* spe) {
  if (!live(spe)) return fail(ESRCH);
  spe->live = false;
  for (auto& h : handlers_) {
    auto& r = h->registrations;
    r.erase(std::remove_if(r.begin(), r.end(), [spe](const auto& x) { return x.spe == spe; }),
            r.end());
  }
  return 0;
}

int Ppe::spe_context_run(SpeContext* spe, unsigned* entry, unsigned, void* argp, void* envp,
                         StopInfo* stopinfo) {
  if (!live(spe)) return fail(ESRCH);
  const spe_mmio::Spe s = regs(spe);
  const uint64_t words[6] = {static_cast<uint64_t>(spe->spe), 0, ea_(argp), 0, ea_(envp), 0};
  hal_.store(s.local_store(kRunParameters), words, sizeof words);
  const uint32_t npc = entry == nullptr || *entry == spe::kDefaultEntry ? 0 : *entry;
  hal_.reg_write(s.ps(ps::kSpuNpc), npc);
  ++spe->runs;
  hal_.reg_write(s.ps(ps::kSpuRunCntl), 1);
  uint32_t status = 0;
  irq::wait_until(hal_, 1u << cell::spe::ppe_line(spe->spe), spu::kIrqTimeoutCycles, "SPE stop",
                  [&] {
                    status = static_cast<uint32_t>(hal_.reg_read(s.ps(ps::kSpuStatus)));
                    return (status & ps::kStatusStoppedByStop) != 0;
                  });
  const uint32_t code = status >> ps::kStopCodeShift;
  if (entry != nullptr) *entry = static_cast<unsigned>(hal_.reg_read(s.ps(ps::kSpuNpc)));
  StopInfo& stop = spe->last_stop;
  stop.stop_reason = (code & 0xFF00) == kNormalEnd ? spe::kExit : 2;  // 2: stop-and-signal
  stop.exit_code = static_cast<int>(code & 0xFF);
  stop.spu_status = static_cast<int>(status);
  spe->stopped = true;
  if (stopinfo != nullptr) *stopinfo = stop;
  return (code & 0xFF00) == kNormalEnd ? 0 : static_cast<int>(code);
}

int Ppe::spe_stop_info_read(SpeContext* spe, StopInfo* stopinfo) {
  if (!live(spe)) return fail(ESRCH);
  if (stopinfo == nullptr || !spe->stopped) return fail(EINVAL);
  *stopinfo = spe->last_stop;
  return 0;
}

int Ppe::spe_out_mbox_read(SpeContext* spe, unsigned* data, int count) {
  if (!live(spe)) return fail(ESRCH);
  if (data == nullptr || count < 1) return fail(EINVAL);
  int n = 0;
  while (n < count && spe_mmio::out_mbox_count(spe_mmio::mbox_stat(hal_, regs(spe))) > 0) {
    data[n++] = spe_mmio::read_out_mbox(hal_, regs(spe));
  }
  return n;
}

int Ppe::spe_out_mbox_status(SpeContext* spe) {
  if (!live(spe)) return fail(ESRCH);
  return static_cast<int>(spe_mmio::out_mbox_count(spe_mmio::mbox_stat(hal_, regs(spe))));
}

// Writes while the inbound mailbox has room; the blocking behaviours poll its status for more.
int Ppe::spe_in_mbox_write(SpeContext* spe, unsigned* data, int count, unsigned behavior) {
  if (!live(spe)) return fail(ESRCH);
  if (data == nullptr || count < 0) return fail(EINVAL);
  if (!mailbox_behavior(behavior)) return fail(EINVAL);
  const spe_mmio::Spe s = regs(spe);
  int n = 0;
  while (n < count) {
    uint32_t free = spe_mmio::in_mbox_free(spe_mmio::mbox_stat(hal_, s));
    if (free == 0) {
      if (gives_up(behavior, n)) break;
      continue;  // poll again
    }
    for (; free > 0 && n < count; --free) spe_mmio::write_in_mbox(hal_, s, data[n++]);
  }
  return n;
}

int Ppe::spe_in_mbox_status(SpeContext* spe) {
  if (!live(spe)) return fail(ESRCH);
  return static_cast<int>(spe_mmio::in_mbox_free(spe_mmio::mbox_stat(hal_, regs(spe))));
}

// The outbound interrupt mailbox: the blocking behaviours sleep on the SPE's PPE line.
int Ppe::spe_out_intr_mbox_read(SpeContext* spe, unsigned* data, int count, unsigned behavior) {
  if (!live(spe)) return fail(ESRCH);
  if (data == nullptr || count < 1) return fail(EINVAL);
  if (!mailbox_behavior(behavior)) return fail(EINVAL);
  const spe_mmio::Spe s = regs(spe);
  int n = 0;
  while (n < count) {
    if (spe_mmio::out_intr_mbox_count(spe_mmio::mbox_stat(hal_, s)) > 0) {
      data[n++] = spe_mmio::read_out_intr_mbox(hal_, s);
      continue;
    }
    if (gives_up(behavior, n)) break;
    data[n++] = spe_mmio::wait_out_intr_mbox(hal_, s);
  }
  return n;
}

int Ppe::spe_out_intr_mbox_status(SpeContext* spe) {
  if (!live(spe)) return fail(ESRCH);
  return static_cast<int>(spe_mmio::out_intr_mbox_count(spe_mmio::mbox_stat(hal_, regs(spe))));
}

int Ppe::spe_signal_write(SpeContext* spe, unsigned reg, unsigned data) {
  if (!live(spe)) return fail(ESRCH);
  if (reg != spe::kSigNotifyReg1 && reg != spe::kSigNotifyReg2) return fail(EINVAL);
  spe_mmio::write_signal(hal_, regs(spe), static_cast<int>(reg), data);
  return 0;
}

int Ppe::proxy(SpeContext* spe, uint32_t opcode, unsigned ls, void* ea, unsigned size,
               unsigned tag) {
  if (!live(spe)) return fail(ESRCH);
  if (tag >= cell::spe::kTags) return fail(EINVAL);
  spe_mmio::proxy_command(hal_, regs(spe), opcode, ls, ea_(ea), size, tag);
  spe->proxy_pending |= 1u << tag;
  return 0;
}
int Ppe::spe_mfcio_put(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                       unsigned, unsigned) {
  return proxy(spe, op::kPut, ls, ea, size, tag);
}
int Ppe::spe_mfcio_putb(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                        unsigned, unsigned) {
  return proxy(spe, op::kPut | op::kBarrierBit, ls, ea, size, tag);
}
int Ppe::spe_mfcio_putf(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                        unsigned, unsigned) {
  return proxy(spe, op::kPut | op::kFenceBit, ls, ea, size, tag);
}
int Ppe::spe_mfcio_get(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                       unsigned, unsigned) {
  return proxy(spe, op::kGet, ls, ea, size, tag);
}
int Ppe::spe_mfcio_getb(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                        unsigned, unsigned) {
  return proxy(spe, op::kGet | op::kBarrierBit, ls, ea, size, tag);
}
int Ppe::spe_mfcio_getf(SpeContext* spe, unsigned ls, void* ea, unsigned size, unsigned tag,
                        unsigned, unsigned) {
  return proxy(spe, op::kGet | op::kFenceBit, ls, ea, size, tag);
}

int Ppe::spe_mfcio_tag_status_read(SpeContext* spe, unsigned mask, unsigned behavior,
                                   unsigned* tag_status) {
  if (!live(spe)) return fail(ESRCH);
  if (tag_status == nullptr) return fail(EINVAL);
  uint32_t type = 0;
  switch (behavior) {
    case spe::kTagImmediate:
      type = 0;
      break;
    case spe::kTagAny:
      type = 1;
      break;
    case spe::kTagAll:
      type = 2;
      break;
    default:
      return fail(EINVAL);
  }
  if (type == 1 && mask == 0) return fail(EINVAL);  // "any" of no group never completes
  *tag_status = spe_mmio::proxy_tag_status(hal_, regs(spe), mask, type);
  spe->proxy_pending &= ~*tag_status;
  return 0;
}

// ---- Events ----------------------------------------------------------------------------------

bool Ppe::live_handler(const EventHandler* h) const {
  return std::any_of(handlers_.begin(), handlers_.end(),
                     [h](const auto& x) { return x.get() == h; });
}

EventHandler* Ppe::spe_event_handler_create() {
  handlers_.push_back(std::make_unique<EventHandler>());
  return handlers_.back().get();
}

int Ppe::spe_event_handler_destroy(EventHandler* handler) {
  if (!live_handler(handler)) return fail(ESRCH);
  if (!handler->registrations.empty()) return fail(EAGAIN);  // deregister its events first
  handlers_.erase(std::find_if(handlers_.begin(), handlers_.end(),
                               [handler](const auto& x) { return x.get() == handler; }));
  return 0;
}

int Ppe::spe_event_handler_register(EventHandler* handler, EventUnit* event) {
  if (!live_handler(handler)) return fail(ESRCH);
  if (event == nullptr || !live(event->spe)) return fail(EINVAL);
  if ((event->spe->flags & spe::kEventsEnable) == 0 || event->events == 0 ||
      (event->events & ~spe::kEventAll) != 0) {
    return fail(ENOTSUP);
  }
  for (auto& r : handler->registrations) {
    if (r.spe != event->spe) continue;
    r.events |= event->events;
    r.data = event->data;
    return 0;
  }
  handler->registrations.push_back({event->spe, event->events, event->data});
  return 0;
}

int Ppe::spe_event_handler_deregister(EventHandler* handler, EventUnit* event) {
  if (!live_handler(handler)) return fail(ESRCH);
  if (event == nullptr || !live(event->spe)) return fail(EINVAL);
  if ((event->spe->flags & spe::kEventsEnable) == 0 || (event->events & ~spe::kEventAll) != 0) {
    return fail(ENOTSUP);
  }
  auto& regs = handler->registrations;
  for (auto it = regs.begin(); it != regs.end(); ++it) {
    if (it->spe != event->spe) continue;
    it->events &= ~event->events;
    if (it->events == 0) regs.erase(it);
    break;
  }
  return 0;
}

int Ppe::poll_events(EventHandler& handler, EventUnit* out, int max) {
  int n = 0;
  auto add = [&](const EventHandler::Registration& r, unsigned event) {
    if (n < max) out[n++] = EventUnit{event, r.spe, r.data};
  };
  for (auto& r : handler.registrations) {
    const spe_mmio::Spe s = regs(r.spe);
    if (r.events & (spe::kEventOutIntrMbox | spe::kEventInMbox)) {
      const uint32_t stat = spe_mmio::mbox_stat(hal_, s);
      if ((r.events & spe::kEventOutIntrMbox) && spe_mmio::out_intr_mbox_count(stat) > 0) {
        add(r, spe::kEventOutIntrMbox);
      }
      if ((r.events & spe::kEventInMbox) && spe_mmio::in_mbox_free(stat) > 0) {
        add(r, spe::kEventInMbox);
      }
    }
    if ((r.events & spe::kEventTagGroup) && r.spe->proxy_pending != 0 && n < max) {
      const uint32_t done = spe_mmio::proxy_tag_status(hal_, s, r.spe->proxy_pending, 0);
      if (done != 0) {
        r.spe->proxy_pending &= ~done;
        add(r, spe::kEventTagGroup);
      }
    }
    if ((r.events & spe::kEventSpeStopped) && r.spe->stops_reported < r.spe->runs && n < max) {
      const auto status = static_cast<uint32_t>(hal_.reg_read(s.ps(ps::kSpuStatus)));
      if (status & ps::kStatusStoppedByStop) {
        r.spe->stops_reported = r.spe->runs;
        add(r, spe::kEventSpeStopped);
      }
    }
  }
  return n;
}

int Ppe::spe_event_wait(EventHandler* handler, EventUnit* events, int max_events, int timeout_ms) {
  if (!live_handler(handler)) return fail(ESRCH);
  if (events == nullptr || max_events < 1 || timeout_ms < -1) return fail(EINVAL);
  const uint64_t start = hal_.cycles();
  const uint64_t limit =
      timeout_ms < 0 ? 0 : static_cast<uint64_t>(timeout_ms * 1e-3 * hal_.clock_hz());
  for (;;) {
    const int n = poll_events(*handler, events, max_events);
    if (n > 0 || timeout_ms == 0) return n;
    const uint64_t waited = hal_.cycles() - start;
    if (timeout_ms > 0 && waited >= limit) return 0;
    uint32_t lines = 0;
    bool poll = false;
    for (const auto& r : handler->registrations) {
      lines |= 1u << cell::spe::ppe_line(r.spe->spe);
      poll = poll || (r.events & (spe::kEventInMbox | spe::kEventTagGroup)) != 0;
    }
    if (lines == 0) {
      if (timeout_ms < 0) {
        hal_.fail(
            "spe_event_wait without a timeout on a handler with no events registered would wait "
            "forever");
      }
      hal_.wait_irq_for(0, limit - waited);  // nothing can come: the timeout passes
      return 0;
    }
    if (!poll && timeout_ms < 0) {
      hal_.wait_irq(lines);  // only interrupting events, and no end
    } else {
      uint64_t sleep = timeout_ms < 0 ? kEventPollCycles : limit - waited;
      if (poll) sleep = std::min(sleep, kEventPollCycles);
      hal_.wait_irq_for(lines, sleep);
    }
  }
}

void* Ppe::spe_ls_area_get(SpeContext* spe) {
  if (!live(spe)) {
    errno = ESRCH;
    return nullptr;
  }
  return reinterpret_cast<void*>(
      static_cast<uintptr_t>(amap::acc_spe(spe->spe) + amap::kSpeLocalStore));
}

int Ppe::spe_ls_size_get(SpeContext* spe) {
  if (!live(spe)) return fail(ESRCH);
  return static_cast<int>(kLsBytes);
}

int Ppe::spe_cpu_info_get(int info_requested, int cpu_node) {
  if (cpu_node != -1 && cpu_node != 0) return fail(EINVAL);
  switch (info_requested) {
    case spe::kCountPhysicalCpuNodes:
      return 1;
    case spe::kCountPhysicalSpes:
      return static_cast<int>(contexts_.size());
    case spe::kCountUsableSpes: {
      int n = 0;
      for (const SpeContext& c : contexts_) n += c.live ? 0 : 1;
      return n;
    }
    default:
      return fail(EINVAL);
  }
}

void run_spu_main(Hal& hal, const SpuMain& main, int runs) {
  const uint64_t ctl = amap::kSpeControl;
  for (int r = 0; r < runs; ++r) {
    irq::wait_until(hal, 1u << cell::spe::kRunLine, spu::kIrqTimeoutCycles, "SPE run",
                    [&] { return hal.reg_read(ctl + cell::spe::ctl::kRunRequest) != 0; });
    hal.reg_write(ctl + cell::spe::ctl::kStart, 1);
    uint64_t words[6];
    hal.load(amap::kSpeLocalStore + kRunParameters, words, sizeof words);
    const int status = main(hal, words[0], words[2], words[4]);
    hal.reg_write(ctl + cell::spe::ctl::kStop, kNormalEnd | (static_cast<uint32_t>(status) & 0xFF));
  }
}

}  // namespace hs::fw::cell_sdk
