#include "hw/cell/spe.h"

#include "hw/hybrid/address_map.h"

namespace hs::cell {

namespace amap = hybrid::amap;

Spe::Spe(sc_core::sc_module_name name, double core_clock_hz, int core_index)
    : sc_module(name),
      spu("spu", core_clock_hz, core_index),
      // 6-cycle local store at 3.2 GHz; 16 B per cycle per port.
      local_store("local_store", MemoryDefaults{256 * 1024, 1.875, 51.2, 256 * 1024}),
      local_bus("local_bus", 0.0),
      mfc("mfc", core_index, local_store.size()) {
  spu.bus.bind(local_bus.upstream);
  mfc.irq.bind(spu);
  mfc.ls_port.bind(local_store.socket);  // the MFC's own local-store port, not the SPE bus
  local_bus.attach(local_store.socket, amap::kSpeLocalStore, local_store.size(), "local_store");
  local_bus.attach(mfc.registers().socket, amap::kSpeMfcRegs, 0x1000, "mfc_regs");
}

}  // namespace hs::cell
