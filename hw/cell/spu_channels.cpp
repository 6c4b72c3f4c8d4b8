#include "hw/cell/spu_channels.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "hw/cell/spe_interface.h"
#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

namespace hs::cell {

using sc_core::sc_time;
namespace ch = spe::ch;
namespace ev = spe::event;

namespace {
sc_time channel_latency(const char* scope) {
  return sc_time(ParamScope(scope).real("channel_latency", 2.0, "ns",
                                        "an SPU channel access (its data or its count)",
                                        Range::between(0, 1000)),
                 sc_core::SC_NS);
}
}  // namespace

SpuChannels::SpuChannels(sc_core::sc_module_name name, const std::string& spe_name, Mfc& mfc,
                         double timebase_hz)
    : sc_module(name),
      spu_irq(std::string(this->name()) + ".spu_irq"),
      ppe_irq(std::string(this->name()) + ".ppe_irq"),
      spe_name_(spe_name),
      mfc_(mfc),
      regs_("regs", channel_latency(this->name())),
      control_regs_("control", sc_time(2, sc_core::SC_NS)),
      timebase_(timebase_hz),
      stats_(this->name()),
      in_mbox_writes_(stats_.counter("in_mbox_writes", "entries", "inbound mailbox writes")),
      in_mbox_overwrites_(stats_.counter(
          "in_mbox_overwrites", "entries",
          "inbound mailbox writes that found it full and overwrote its newest entry")),
      out_mbox_writes_(stats_.counter("out_mbox_writes", "entries", "outbound mailbox writes")),
      out_intr_mbox_writes_(
          stats_.counter("out_intr_mbox_writes", "entries", "outbound interrupt mailbox writes")),
      signals_(stats_.counter("signals", "writes", "signal-notification register writes")),
      events_raised_(stats_.counter("events", "events", "SPU events raised")) {
  mfc_.set_listener(this);
  mfc_.atomic_unit().on_status = [this] { channel_ready(ch::kRdAtomicStat); };
  mfc_.atomic_unit().on_reservation_lost = [this] { raise_events(ev::kReservationLost); };

  define_channel(
      ch::kRdEventStat, [this] { return pending_events(); }, nullptr);
  define_channel(ch::kWrEventMask, nullptr, [this](uint64_t v) {
    const bool was = pending_events() != 0;
    event_mask_ = static_cast<uint32_t>(v) & ev::kAll;
    schedule_decrementer();
    if (!was && pending_events()) channel_ready(ch::kRdEventStat);
  });
  define_channel(ch::kWrEventAck, nullptr,
                 [this](uint64_t v) { events_ &= ~static_cast<uint32_t>(v); });
  define_channel(
      ch::kRdEventMask, [this] { return event_mask_; }, nullptr);
  for (int r = 0; r < 2; ++r) {
    define_channel(
        r == 0 ? ch::kRdSigNotify1 : ch::kRdSigNotify2,
        [this, r] {
          const uint32_t v = signal_[r];
          signal_[r] = 0;
          signal_pending_[r] = false;
          return v;
        },
        nullptr);
  }
  define_channel(ch::kWrDec, nullptr,
                 [this](uint64_t v) { write_decrementer(static_cast<uint32_t>(v)); });
  define_channel(
      ch::kRdDec, [this] { return decrementer(); }, nullptr);
  define_channel(
      ch::kRdTagMask, [this] { return mfc_.tag_mask(); }, nullptr);
  define_channel(ch::kMfcLsa, nullptr, [this](uint64_t v) { lsa_ = static_cast<uint32_t>(v); });
  define_channel(ch::kMfcEah, nullptr, [this](uint64_t v) { eah_ = static_cast<uint32_t>(v); });
  define_channel(ch::kMfcEal, nullptr, [this](uint64_t v) { eal_ = static_cast<uint32_t>(v); });
  define_channel(ch::kMfcSize, nullptr, [this](uint64_t v) { size_ = static_cast<uint32_t>(v); });
  define_channel(ch::kMfcTagId, nullptr, [this](uint64_t v) { tag_ = static_cast<uint32_t>(v); });
  define_channel(ch::kMfcCmd, nullptr, [this](uint64_t v) {
    mfc_.spu_command({static_cast<uint32_t>(v), lsa_, uint64_t{eah_} << 32 | eal_, size_, tag_});
    eah_ = 0;  // a command's high word is 0 unless written again
  });
  define_channel(ch::kWrTagMask, nullptr,
                 [this](uint64_t v) { mfc_.set_tag_mask(static_cast<uint32_t>(v)); });
  define_channel(ch::kWrTagUpdate, nullptr, [this](uint64_t v) {
    if (v > spe::kTagUpdateAll) {
      CheckRegistry::instance().fail(
          "MFC: commands keep the DMA rules", this->name(),
          fmt::format("{}: tag-status update request {} (0 immediate, 1 any, 2 all)", spe_name_,
                      v));
      return;
    }
    mfc_.request_tag_update(static_cast<uint32_t>(v));
  });
  define_channel(
      ch::kRdTagStat, [this] { return mfc_.take_tag_status(); }, nullptr);
  define_channel(
      ch::kRdListStallStat, [this] { return mfc_.take_list_stall_status(); }, nullptr);
  define_channel(ch::kWrListStallAck, nullptr,
                 [this](uint64_t v) { mfc_.ack_list_stall(static_cast<uint32_t>(v)); });
  define_channel(
      ch::kRdAtomicStat, [this] { return mfc_.atomic_unit().take_status(); }, nullptr);
  define_channel(ch::kWrOutMbox, nullptr, [this](uint64_t v) {
    out_mbox_.entry = static_cast<uint32_t>(v);
    ++out_mbox_writes_;
  });
  define_channel(
      ch::kRdInMbox,
      [this] {
        const uint32_t v = in_mbox_.front();
        in_mbox_.pop_front();
        return v;
      },
      nullptr);
  define_channel(ch::kWrOutIntrMbox, nullptr, [this](uint64_t v) {
    out_intr_mbox_.entry = static_cast<uint32_t>(v);
    ++out_intr_mbox_writes_;
    ppe_irq.raise(0);
  });

  namespace ctl = spe::ctl;
  control_regs_.define(
      ctl::kRunRequest, 4, "RUN_REQUEST", [this] { return run_requested_ ? 1u : 0u; }, nullptr);
  control_regs_.define(
      ctl::kNpc, 4, "NPC", [this] { return npc_; }, nullptr);
  control_regs_.define(ctl::kStart, 4, "START", nullptr, [this](uint64_t) {
    run_requested_ = false;
    status_ = spe::ps::kStatusRunning;
  });
  control_regs_.define(ctl::kStop, 4, "STOP", nullptr, [this](uint64_t code) {
    status_ =
        static_cast<uint32_t>(code) << spe::ps::kStopCodeShift | spe::ps::kStatusStoppedByStop;
    ppe_irq.raise(0);
  });

  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&dec_zero_);
  opts.dont_initialize();
  sc_core::sc_spawn([this] { decrementer_passed_zero(); }, "decrementer", &opts);
}

void SpuChannels::define_channel(unsigned c, RegisterFile::ReadFn read,
                                 RegisterFile::WriteFn write) {
  const std::string n = spe::channel_name(c);
  RegisterFile::ReadFn r;
  RegisterFile::WriteFn w;
  if (read) {
    r = [this, c, read = std::move(read)]() -> uint64_t {
      if (count(c) == 0) {
        refuse(c, "read");
        return 0;
      }
      return read();
    };
  }
  if (write) {
    w = [this, c, write = std::move(write)](uint64_t v) {
      if (count(c) == 0) {
        refuse(c, "written");
        return;
      }
      write(v);
    };
  }
  regs_.define(c * spe::kChannelStride, 4, n, std::move(r), std::move(w));
  regs_.define(
      c * spe::kChannelStride + spe::kCountOffset, 4, n + " count", [this, c] { return count(c); },
      nullptr);
}

void SpuChannels::refuse(unsigned c, const char* what) const {
  CheckRegistry::instance().fail(
      "SPU: channels are accessed only when their count allows", name(),
      fmt::format("{}: channel {} ({}) {} while its count is 0: the SPU would stall forever "
                  "(firmware waits for the count first)",
                  spe_name_, c, spe::channel_name(c), what));
}

uint32_t SpuChannels::count(unsigned c) const {
  switch (c) {
    case ch::kRdEventStat:
      return pending_events() != 0 ? 1 : 0;
    case ch::kRdSigNotify1:
      return signal_pending_[0] ? 1 : 0;
    case ch::kRdSigNotify2:
      return signal_pending_[1] ? 1 : 0;
    case ch::kMfcCmd:
      return mfc_.free_entries(MfcIssuer::Spu);
    case ch::kRdTagStat:
      return mfc_.tag_status_ready() ? 1 : 0;
    case ch::kRdListStallStat:
      return mfc_.list_stall_ready() ? 1 : 0;
    case ch::kRdAtomicStat:
      return mfc_.atomic_unit().status_ready() ? 1 : 0;
    case ch::kWrOutMbox:
      return out_mbox_.entry ? 0 : 1;
    case ch::kRdInMbox:
      return static_cast<uint32_t>(in_mbox_.size());
    case ch::kWrOutIntrMbox:
      return out_intr_mbox_.entry ? 0 : 1;
    default:
      return 1;
  }
}

void SpuChannels::channel_ready(unsigned c) {
  spu_irq.raise(c);
}

void SpuChannels::raise_events(uint32_t events) {
  const bool was = pending_events() != 0;
  events_ |= events;
  ++events_raised_;
  if (!was && pending_events()) channel_ready(ch::kRdEventStat);
}

void SpuChannels::proxy_query_done() {
  ppe_irq.raise(0);
}

// ---- Mailboxes and signals: the MMIO side --------------------------------------------------

void SpuChannels::mmio_write_in_mbox(uint32_t v) {
  ++in_mbox_writes_;
  constexpr size_t kEntries = 4;
  if (in_mbox_.size() == kEntries) {
    in_mbox_.back() = v;
    ++in_mbox_overwrites_;
  } else {
    in_mbox_.push_back(v);
  }
  if (in_mbox_.size() == 1) channel_ready(ch::kRdInMbox);
  raise_events(ev::kInMbox);
}

uint32_t SpuChannels::take_outbound(OutMailbox& m) {
  if (m.entry) {
    m.last = *m.entry;
    m.entry.reset();
    channel_ready(m.channel);
    raise_events(m.event);
  }
  return m.last;
}

uint32_t SpuChannels::mbox_stat() const {
  return spe::ps::mbox_stat(out_mbox_.entry ? 1 : 0, 4 - static_cast<uint32_t>(in_mbox_.size()),
                            out_intr_mbox_.entry ? 1 : 0);
}

void SpuChannels::write_signal(int reg, uint32_t v) {
  const int i = reg - 1;
  const bool or_mode = (config_ >> i & 1) != 0;
  signal_[i] = or_mode ? signal_[i] | v : v;
  ++signals_;
  const bool was = signal_pending_[i];
  signal_pending_[i] = true;
  if (!was) channel_ready(i == 0 ? ch::kRdSigNotify1 : ch::kRdSigNotify2);
  raise_events(i == 0 ? ev::kSignal1 : ev::kSignal2);
}

void SpuChannels::run_control(uint32_t v) {
  const bool stopped = (status_ & spe::ps::kStatusRunning) == 0;
  run_requested_ = (v & 1) != 0 && stopped;
  if (run_requested_) {
    status_ = 0;
    spu_irq.raise(spe::kRunLine);
  }
}

// ---- Decrementer -------------------------------------------------------------------------

uint32_t SpuChannels::decrementer() const {
  const uint64_t ticks = timebase_.cycle_at(hs::now()) - dec_tick_;
  return dec_written_ - static_cast<uint32_t>(ticks);
}

void SpuChannels::write_decrementer(uint32_t v) {
  dec_written_ = v;
  dec_tick_ = timebase_.cycle_at(hs::now());
  // It reads -1 (passes zero) v + 1 ticks after the tick it was written in.
  dec_zero_tick_ = dec_tick_ + uint64_t{v} + 1;
  dec_fired_ = false;
  schedule_decrementer();
}

void SpuChannels::schedule_decrementer() {
  dec_zero_.cancel();
  if (dec_fired_ || !(event_mask_ & ev::kDecrementer)) return;
  const sc_time at = timebase_.cycles(dec_zero_tick_);
  const sc_time now = hs::now();
  dec_zero_.notify(at > now ? at - now : sc_core::SC_ZERO_TIME);
}

void SpuChannels::decrementer_passed_zero() {
  dec_fired_ = true;
  raise_events(ev::kDecrementer);
}

}  // namespace hs::cell
