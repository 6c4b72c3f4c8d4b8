// A machine's memory, estimated before it is built, so that a machine too large for the host
// is refused in a second, naming what sizes it, instead of failing an allocation minutes in.
//
// Rules:
//  - A component whose memory grows with parameters (the torus machine: its nodes) calls
//    require() with its estimate before allocating.
//  - The budget is sim.memory_limit if set, else what the host has for this process when the
//    run starts: the memory available (MemAvailable) and the address-space limit, the smaller.
//  - An estimate above the budget throws InputError (exit 2) naming the estimate, the budget,
//    the parameters that size the machine, and how to run it anyway.
//  - Estimates are measured peak resident sizes per unit (see the caller), not guesses; they
//    are meant to be within a factor of 1.5 of a run's peak.
#pragma once
#include <string>

namespace hs {

class MemoryBudget {
 public:
  static MemoryBudget& instance();

  // 0: what the host has (see above).
  void set_limit(double bytes) { limit_ = bytes; }
  // Throws InputError if `bytes` (for `what`, sized by `parameters`) exceeds the budget.
  void require(double bytes, const std::string& what, const std::string& parameters) const;

  // What this process may still use: MemAvailable, capped by RLIMIT_AS less what it has mapped.
  static double host_available_bytes();

 private:
  double limit_ = 0;
};

// Makes running out of memory a clear error wherever it happens: a reserve released on the
// first failed allocation, so that what follows (the error, the outputs' cleanup) has room,
// then std::bad_alloc; and, where a bad_alloc cannot be caught (a noexcept function, a
// simulation thread), a message on standard error and exit status 2 instead of SIGABRT.
// `what_to_do` ends the message. Call once, first thing in main.
void install_out_of_memory_handlers(const std::string& what_to_do);

// The message for an allocation failure: peak resident size so far, and `what_to_do`.
std::string out_of_memory_message();

}  // namespace hs
