// Process-wide SystemC setup shared by every hybridsim executable.
#pragma once
#include <systemc>

namespace hs {

// Silences the kernel's banner and its informational "stopped by user" report, so that a
// run prints only hybridsim's own output. Call before the first SystemC object exists.
void quiet_systemc_kernel();

// Unwinds the thread processes and fibers (tlm/kernel/fiber.h) still suspended when a run ends
// (firmware stopped early, engines waiting for work that never comes), so their stacks release what
// they hold: the kernel otherwise discards them. Create during elaboration; call unwind() once the
// run is over (the kernel paused or out of events, never after sc_stop()).
class ThreadReaper : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ThreadReaper);
  explicit ThreadReaper(sc_core::sc_module_name name);
  void unwind();

 private:
  void reap();  // kills from inside a process, where the kernel supports it
  sc_core::sc_event go_;
};

}  // namespace hs
