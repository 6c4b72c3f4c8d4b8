// A Synergistic Processing Element: the SPU core, its 256 KiB local store, its MFC (with the
// atomic unit), its channel interface and its problem-state registers.
//
// Two views of one SPE: the SPU's (`spu_bus`: its local store, and only for it its channels
// and run control) and every EIB master's (`local_bus`, the SPE window in the accelerator's
// map: the local store, the problem state and the privileged-2 area). The MFC reaches the
// local store directly; every path shares the local store's one port.
#pragma once
#include <string>
#include <systemc>

#include "hw/cell/lock_line.h"
#include "hw/cell/mfc.h"
#include "hw/cell/problem_state.h"
#include "hw/cell/spu_channels.h"
#include "hw/cpu/core.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"

namespace hs::cell {

class Spe : public sc_core::sc_module {
 public:
  Spe(sc_core::sc_module_name name, double core_clock_hz, int core_index, Element element,
      LockLineReservations& reservations, double timebase_hz);

  Core spu;
  Memory local_store;
  Router local_bus;  // the EIB's view
  Router spu_bus;    // the SPU's view
  Mfc mfc;
  SpuChannels channels;
  ProblemState problem_state;
};

}  // namespace hs::cell
