#include "tlm/kernel/kernel_setup.h"

#include "tlm/kernel/fiber.h"

#include <cstdlib>
#include <string>
#include <systemc>
#include <vector>

namespace hs {

void quiet_systemc_kernel() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // sc_stop() ("Simulation stopped by user.") and opening a VCD file ("tracing timescale
  // unit set") report at INFO severity; hybridsim itself never reports INFO through SystemC.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

namespace {
void collect_threads(const std::vector<sc_core::sc_object*>& objects,
                     std::vector<sc_core::sc_process_handle>& out) {
  for (sc_core::sc_object* o : objects) {
    if (std::string(o->kind()) == "sc_thread_process") out.emplace_back(o);
    collect_threads(o->get_child_objects(), out);
  }
}
}  // namespace

ThreadReaper::ThreadReaper(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(reap);
  sensitive << go_;
  dont_initialize();
}

void ThreadReaper::unwind() {
  if (sc_core::sc_get_status() != sc_core::SC_PAUSED) return;
  go_.notify();
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

void ThreadReaper::reap() {
  std::vector<sc_core::sc_process_handle> threads;
  collect_threads(sc_core::sc_get_top_level_objects(), threads);
  for (auto& h : threads) {
    if (h.valid() && !h.terminated()) h.kill();
  }
  Fiber::unwind_all();
}

}  // namespace hs

// libsystemc supplies main() and prints its banner before sc_main runs; this main() takes
// its place so the banner can be silenced first.
int main(int argc, char* argv[]) {
  hs::quiet_systemc_kernel();
  return sc_core::sc_elab_and_sim(argc, argv);
}
