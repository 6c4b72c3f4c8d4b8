#include "hw/cell/eib.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::cell {

using sc_core::sc_time;

namespace {

constexpr uint64_t kCommandBytes = 128;  // the most one command moves

uint64_t command_count(uint64_t bytes) {
  return std::max<uint64_t>(1, (bytes + kCommandBytes - 1) / kCommandBytes);
}

// Busy intervals of one resource within one access, handed on joined where one starts as the
// last ended: a busy interval counts its length, so the joined one counts exactly as its parts
// do in every window (whole or in progress), for a fraction of the bookkeeping.
class BusyRun {
 public:
  explicit BusyRun(BusyTime& busy) : busy_(busy) {}
  BusyRun(const BusyRun&) = delete;
  BusyRun& operator=(const BusyRun&) = delete;
  ~BusyRun() { flush(); }
  void add(const sc_time& start, const sc_time& end) {
    if (open_ && start == end_) {
      end_ = end;
      return;
    }
    flush();
    open_ = true;
    start_ = start;
    end_ = end;
  }

 private:
  void flush() {
    if (open_) busy_.add(start_, end_);
    open_ = false;
  }
  BusyTime& busy_;
  bool open_ = false;
  sc_time start_, end_;
};

// The command-bus cycles of one access, handed on as runs of consecutive cycles: converted to
// time once per run rather than twice per command (the parts' lengths add up to the run's).
class CommandRun {
 public:
  CommandRun(BusyTime& busy, const Clock& clock) : busy_(busy), clock_(clock) {}
  CommandRun(const CommandRun&) = delete;
  CommandRun& operator=(const CommandRun&) = delete;
  ~CommandRun() { flush(); }
  void add(uint64_t slot) {
    if (end_ == slot && end_ > start_) {
      ++end_;
      return;
    }
    flush();
    start_ = slot;
    end_ = slot + 1;
  }

 private:
  void flush() {
    if (end_ > start_) busy_.add(clock_.cycles(start_), clock_.cycles(end_));
    start_ = end_ = 0;
  }
  BusyTime& busy_;
  const Clock& clock_;
  uint64_t start_ = 0, end_ = 0;  // [start_, end_): empty when equal
};

}  // namespace

Eib::Eib(sc_core::sc_module_name name, double core_clock_hz)
    : Router(name, 0.0),
      bus_clock_(core_clock_hz / 2),  // the EIB runs at half the core clock
      bytes_(stats_.counter("bytes", "B", "data bytes carried (rings and ramps)")),
      commands_(stats_.counter("commands", "commands", "commands on the command bus (<= 128 B)")),
      command_busy_(stats_.busy("command_bus_utilisation",
                                "fraction of bus cycles the command bus takes a command")),
      ring_busy_(stats_.busy("ring_utilisation",
                             "mean fraction of the rings' segments carrying data (all rings)")) {
  ParamScope p(this->name());
  const auto rings = static_cast<int>(
      p.integer("rings", 4, "", "data rings, the first half clockwise, the rest counter-clockwise",
                Range::one_of({2, 4, 6, 8})));
  transfers_per_ring_ = static_cast<int>(p.integer(
      "transfers_per_ring", 3, "transfers",
      "transfers one ring carries at once when their paths do not overlap", Range::between(1, 6)));
  ring_width_ = static_cast<uint32_t>(p.integer("ring_width", 16, "B",
                                                "bytes per bus cycle on a ring or a ramp",
                                                Range::one_of({8, 16, 32})));
  arbitration_cycles_ = static_cast<uint32_t>(
      p.integer("arbitration_cycles", 8, "cycles",
                "bus cycles from a command's slot on the command bus to its earliest data grant",
                Range::between(0, 1000)));
  const std::string policy =
      p.choice("ring_policy", "lowest",
               "ring the data arbiter grants when several can start a transfer at once: lowest "
               "(lowest-numbered) or round_robin (the next after the last granted)",
               {"lowest", "round_robin"});
  arbiter_ = std::make_unique<EibArbiter>(rings, transfers_per_ring_, make_ring_policy(policy));
  time_by_cycles_.resize(kCommandBytes / 8 + 1);  // a command's cycles at the narrowest width
  for (size_t c = 0; c < time_by_cycles_.size(); ++c) time_by_cycles_[c] = bus_clock_.cycles(c);
  // Each ring's and the rings' mean share of a transfer, by its cycles and hops (computed here
  // once, as data_phase would each time).
  ring_share_.resize(time_by_cycles_.size() * (kMaxHops + 1));
  for (uint64_t c = 1; c < time_by_cycles_.size(); ++c) {
    for (uint64_t h = 1; h <= kMaxHops; ++h) {
      const sc_time on_ring = bus_clock_.cycles(c + h - 1);
      const sc_time share = on_ring * (static_cast<double>(h) / kEibElements);
      ring_share_[c * (kMaxHops + 1) + h] = {share, share / static_cast<double>(rings)};
    }
  }

  for (int r = 0; r < rings; ++r) {
    const char* dir = arbiter_->clockwise(r) ? "clockwise" : "counter-clockwise";
    ring_stats_.push_back(RingStats{
        stats_.counter(fmt::format("ring{}_bytes", r), "B",
                       fmt::format("bytes carried by ring {} ({})", r, dir)),
        stats_.counter(fmt::format("ring{}_transfers", r), "transfers",
                       fmt::format("transfers carried by ring {} ({})", r, dir)),
        stats_.busy(fmt::format("ring{}_utilisation", r),
                    fmt::format("mean fraction of ring {}'s 12 segments carrying data", r))});
    ring_tracks_.push_back(
        TransactionTrace::instance().track(fmt::format("{}.ring{}", this->name(), r)));
  }
  for (int e = 0; e < kEibElements; ++e) {
    const char* el = to_string(static_cast<Element>(e));
    on_ramp_stats_.push_back(
        RampStats{stats_.counter(fmt::format("{}_on_ramp_bytes", el), "B",
                                 fmt::format("bytes {} put onto the rings", el)),
                  stats_.busy(fmt::format("{}_on_ramp_utilisation", el),
                              fmt::format("fraction of time {}'s on-ramp moves data", el))});
    off_ramp_stats_.push_back(
        RampStats{stats_.counter(fmt::format("{}_off_ramp_bytes", el), "B",
                                 fmt::format("bytes {} took off the rings", el)),
                  stats_.busy(fmt::format("{}_off_ramp_utilisation", el),
                              fmt::format("fraction of time {}'s off-ramp moves data", el))});
  }
  stats_.derived("peak_bandwidth_GBps", "GB/s", "128 B per command x one command per bus cycle",
                 [this] { return peak_bytes_per_second() / 1e9; });
  stats_.derived("ring_capacity_GBps", "GB/s",
                 "rings x transfers per ring x ring width x bus clock",
                 [this] { return ring_capacity_bytes_per_second() / 1e9; });
}

void Eib::attach(TargetSocket& target, uint64_t base, uint64_t size, const std::string& window_name,
                 Element element, bool translate) {
  Router::attach(target, base, size, window_name, translate);
  target_at_.push_back(element);
}

void Eib::end_of_elaboration() {
  if (master_at_.size() != upstream.size()) {
    throw std::logic_error(
        fmt::format("{}: {} masters bound but {} placed on an element (bind "
                    "masters with Eib::connect)",
                    name(), upstream.size(), master_at_.size()));
  }
}

double Eib::peak_bytes_per_second() const {
  return static_cast<double>(kCommandBytes) * bus_clock_.hz();
}

double Eib::ring_capacity_bytes_per_second() const {
  return static_cast<double>(arbiter_->rings()) * transfers_per_ring_ * ring_width_ *
         bus_clock_.hz();
}

uint64_t Eib::command_phase(uint64_t ready, uint64_t bytes) {
  const uint64_t commands = command_count(bytes);
  uint64_t first = 0, slot = ready;
  CommandRun command_busy(command_busy_, bus_clock_);
  for (uint64_t i = 0; i < commands; ++i) {
    slot = arbiter_->grant_command(i ? slot + 1 : slot);
    if (i == 0) first = slot;
    command_busy.add(slot);
  }
  commands_ += commands;
  return first + arbitration_cycles_;
}

uint64_t Eib::data_phase(Element from, Element to, uint64_t ready, uint64_t bytes,
                         bool with_commands) {
  const uint64_t commands = command_count(bytes);
  cycles_.clear();
  for (uint64_t i = 0; i < commands; ++i) {
    const uint64_t len = std::min(kCommandBytes, bytes - i * kCommandBytes);
    cycles_.push_back(
        static_cast<uint32_t>(std::max<uint64_t>(1, (len + ring_width_ - 1) / ring_width_)));
  }
  // A write's data follows each of its commands through the command phase.
  arbiter_->grant_access(from, to, ready, cycles_, with_commands, arbitration_cycles_, slots_,
                         grants_);
  const auto on = static_cast<size_t>(position(from)), off = static_cast<size_t>(position(to));
  uint64_t arrives = ready;
  CommandRun command_busy(command_busy_, bus_clock_);
  BusyRun on_busy(on_ramp_stats_[on].busy), off_busy(off_ramp_stats_[off].busy);
  for (const uint64_t slot : slots_) command_busy.add(slot);
  commands_ += slots_.size();
  for (uint64_t i = 0; i < commands; ++i) {
    const uint64_t len = std::min(kCommandBytes, bytes - i * kCommandBytes);
    const uint32_t cycles = cycles_[i];
    const DataGrant& g = grants_[i];
    arrives = std::max(arrives, g.start + cycles + static_cast<uint64_t>(g.path.hops));
    const sc_time& held = time_by_cycles_[cycles];
    const sc_time leaves = bus_clock_.cycles(g.start);
    const sc_time lands = bus_clock_.cycles(g.start + static_cast<uint64_t>(g.path.hops));
    bytes_ += len;
    on_ramp_stats_[on].bytes += len;
    on_busy.add(leaves, leaves + held);
    off_ramp_stats_[off].bytes += len;
    off_busy.add(lands, lands + held);
    if (g.ring >= 0) {
      RingStats& r = ring_stats_[static_cast<size_t>(g.ring)];
      r.bytes += len;
      ++r.transfers;
      // Utilisation counts segment-cycles: the share of the ring this transfer holds.
      const auto& share = ring_share_[cycles * (kMaxHops + 1) + static_cast<uint32_t>(g.path.hops)];
      r.busy.add(leaves, leaves + share[0]);
      ring_busy_.add(leaves, leaves + share[1]);
      const int track = ring_tracks_[static_cast<size_t>(g.ring)];
      if (track >= 0) {  // a ring carries several transfers at once: async spans
        const nlohmann::json args = {{"from", to_string(from)},
                                     {"to", to_string(to)},
                                     {"bytes", len},
                                     {"hops", g.path.hops}};
        TransactionTrace::instance().async_span(track, "data", leaves, lands + held, &args);
      }
    }
  }
  return arrives;
}

void Eib::before_target(const Route& route, tlm::tlm_generic_payload& gp, sc_time& delay) {
  const sc_time now = hs::now();
  // Every booking from now on starts at or after now's cycle (initiators only run ahead).
  arbiter_->retire_before(bus_clock_.cycle_at(now));
  const uint64_t bytes = gp.get_data_length();
  const uint64_t ready = bus_clock_.cycle_at_or_after(now + delay);
  if (snoop_) {
    snoop_->snoop(master_at_[static_cast<size_t>(route.from)], gp.get_address(), bytes,
                  gp.is_write());
  }
  // A read reaches its target once its first command is through the command phase; its data
  // moves after the target answered (after_target).
  const uint64_t done =
      gp.is_write() ? data_phase(master_at_[static_cast<size_t>(route.from)],
                                 target_at_[static_cast<size_t>(route.to)], ready, bytes, true)
                    : command_phase(ready, bytes);
  delay = bus_clock_.cycles(done) - now;
}

void Eib::after_target(const Route& route, tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (!gp.is_read() || !gp.is_response_ok()) return;
  const sc_time now = hs::now();
  const uint64_t done = data_phase(
      target_at_[static_cast<size_t>(route.to)], master_at_[static_cast<size_t>(route.from)],
      bus_clock_.cycle_at_or_after(now + delay), gp.get_data_length(), false);
  delay = bus_clock_.cycles(done) - now;
}

}  // namespace hs::cell
