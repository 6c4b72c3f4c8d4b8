// The current simulated time without a library call: hot paths ask for it many times per
// transaction. (A process has exactly one SystemC context in hybridsim.)
#pragma once
#include <systemc>

namespace hs {

inline const sc_core::sc_time& now() {
  static const sc_core::sc_simcontext* const context = sc_core::sc_get_curr_simcontext();
  return context->time_stamp();
}

}  // namespace hs
