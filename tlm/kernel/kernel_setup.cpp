#include "tlm/kernel/kernel_setup.h"

#include <cstdlib>
#include <systemc>

namespace hs {

void quiet_systemc_kernel() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // sc_stop() ("Simulation stopped by user.") and opening a VCD file ("tracing timescale
  // unit set") report at INFO severity; hybridsim itself never reports INFO through SystemC.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

}  // namespace hs

// libsystemc supplies main() and prints its banner before sc_main runs; this main() takes
// its place so the banner can be silenced first.
int main(int argc, char* argv[]) {
  hs::quiet_systemc_kernel();
  return sc_core::sc_elab_and_sim(argc, argv);
}
