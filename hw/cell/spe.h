// A Synergistic Processing Element: the SPU core, its 256 KiB local store and its MFC,
// joined by the SPE's local bus. The SPU reaches only its local store and MFC registers;
// the EIB reaches both through `local_bus` (the SPE window in the accelerator's map). The MFC
// reaches the local store directly; every path shares the local store's one port.
#pragma once
#include <systemc>

#include "hw/cell/mfc.h"
#include "hw/cpu/core.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"

namespace hs::cell {

class Spe : public sc_core::sc_module {
 public:
  Spe(sc_core::sc_module_name name, double core_clock_hz, int core_index);

  Core spu;
  Memory local_store;
  Router local_bus;
  Mfc mfc;
};

}  // namespace hs::cell
