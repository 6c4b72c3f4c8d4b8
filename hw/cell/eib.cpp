#include "hw/cell/eib.h"

#include <algorithm>

#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

namespace hs::cell {

using sc_core::sc_time;

Eib::Eib(sc_core::sc_module_name name, double core_clock_hz)
    : Router(name, 0.0),
      bytes_(stats_.counter("bytes", "B", "data bytes carried on the rings")),
      ring_busy_(stats_.busy("ring_utilisation", "mean fraction of time each ring carries data")) {
  ParamScope p(this->name());
  bus_clock_ = Clock(core_clock_hz / 2);  // the EIB runs at half the core clock
  const auto rings = p.integer("rings", 4, "", "data rings", Range::between(1, 16));
  ring_width_ = static_cast<uint32_t>(
      p.integer("ring_width", 16, "B", "bytes per ring per bus cycle", Range::one_of({8, 16, 32})));
  arbitration_ = bus_clock_.cycles(static_cast<uint64_t>(
      p.integer("arbitration_cycles", 8, "cycles", "bus cycles from request to data grant",
                Range::between(0, 1000))));
  rings_.resize(static_cast<size_t>(rings));
  hold_by_cycles_.resize(65);  // transfers of up to 1 KiB at the narrowest ring width
  for (size_t c = 0; c < hold_by_cycles_.size(); ++c) hold_by_cycles_[c] = bus_clock_.cycles(c);
  stats_.derived("peak_bandwidth_GBps", "GB/s", "rings x width x bus clock",
                 [this] { return peak_bytes_per_second() / 1e9; });
}

double Eib::peak_bytes_per_second() const {
  return static_cast<double>(rings_.size()) * ring_width_ * bus_clock_.hz();
}

void Eib::occupy_ring(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const uint64_t bytes = gp.get_data_length();
  const uint64_t cycles = (bytes + ring_width_ - 1) / ring_width_;
  const sc_time hold =
      cycles < hold_by_cycles_.size() ? hold_by_cycles_[cycles] : bus_clock_.cycles(cycles);
  const sc_time ready = hs::now() + delay + arbitration_;
  // The data arbiter grants the ring that can start the transfer soonest.
  CalendarResource* ring = nullptr;
  sc_time start;
  for (auto& r : rings_) {
    const sc_time s = r.earliest(ready, hold);
    if (!ring || s < start) {
      ring = &r;
      start = s;
      if (s == ready) break;  // no ring can do better than starting at once
    }
  }
  ring->book(start, hold);
  delay = start + hold - hs::now();
  bytes_ += bytes;
  // Utilisation is reported per ring: each ring contributes 1/rings of its busy time.
  ring_busy_.add(hold / static_cast<double>(rings_.size()));
}

void Eib::before_target(tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (gp.is_write()) occupy_ring(gp, delay);
}

void Eib::after_target(tlm::tlm_generic_payload& gp, sc_time& delay) {
  if (gp.is_read() && gp.is_response_ok()) occupy_ring(gp, delay);
}

}  // namespace hs::cell
