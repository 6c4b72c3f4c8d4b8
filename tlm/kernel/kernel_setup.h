// Process-wide SystemC setup shared by every hybridsim executable.
#pragma once

namespace hs {

// Silences the kernel's banner and its informational "stopped by user" report, so that a
// run prints only hybridsim's own output. Call before the first SystemC object exists.
void quiet_systemc_kernel();

}  // namespace hs
