#include "hw/cell/spe.h"

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"

namespace hs::cell {

namespace amap = hybrid::amap;

Spe::Spe(sc_core::sc_module_name name, double core_clock_hz, int core_index, Element element,
         LockLineReservations& reservations, double timebase_hz)
    : sc_module(name),
      spu("spu", core_clock_hz, core_index),
      // 6-cycle local store at 3.2 GHz; 16 B per cycle per port.
      local_store("local_store", MemoryDefaults{256 * 1024, 1.875, 51.2, 256 * 1024}),
      local_bus("local_bus", 0.0),
      spu_bus("spu_bus", 0.0),
      mfc("mfc", this->name(), core_clock_hz, element, reservations, core_index,
          local_store.size()),
      channels("channels", this->name(), mfc, timebase_hz),
      problem_state("problem_state", mfc, channels) {
  spu.bus.bind(spu_bus.upstream);
  channels.spu_irq.bind(spu);
  mfc.ls_port.bind(local_store.socket);  // the MFC's own local-store port, not a bus
  spu_bus.attach(local_store.socket, amap::kSpeLocalStore, local_store.size(), "local_store");
  spu_bus.attach(channels.channels(), amap::kSpeChannels, spe::ch::kCount * spe::kChannelStride,
                 "channels");
  spu_bus.attach(channels.control(), amap::kSpeControl, spe::ctl::kSize, "control");
  local_bus.attach(local_store.socket, amap::kSpeLocalStore, local_store.size(), "local_store");
  local_bus.attach(problem_state.problem_state(), amap::kSpeProblemState, spe::ps::kSize,
                   "problem_state");
  local_bus.attach(problem_state.priv2(), amap::kSpePriv2, spe::priv2::kSize, "priv2");
}

}  // namespace hs::cell
