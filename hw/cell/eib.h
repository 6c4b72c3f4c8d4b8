// The Element Interconnect Bus: address decoding plus `rings` data rings, each `ring_width`
// bytes per bus cycle at half the core clock. A transfer occupies the first ring to become
// free for ceil(bytes / width) bus cycles: writes before they reach their target, read data
// on its way back. Four concurrent streams run at full speed; more share the rings.
#pragma once
#include <vector>

#include "tlm/bus/router.h"
#include "tlm/timing/calendar_resource.h"
#include "tlm/timing/clock.h"

namespace hs::cell {

class Eib : public Router {
 public:
  Eib(sc_core::sc_module_name name, double core_clock_hz);
  double peak_bytes_per_second() const;

 protected:
  void before_target(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  void after_target(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;

 private:
  void occupy_ring(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  Clock bus_clock_;
  uint32_t ring_width_;
  sc_core::sc_time arbitration_;
  std::vector<CalendarResource> rings_;
  std::vector<sc_core::sc_time> hold_by_cycles_;  // ring occupancy by bus cycles
  Counter& bytes_;
  BusyTime& ring_busy_;
};

}  // namespace hs::cell
