// An SPU program (built with `hybridsim-cellcc --target=spu`) on its SPE: the binding of its
// spu_mfcio.h calls to the SPU's channels (sw/cell/spu_sdk.h), through the table its
// forwarders call (sw/cell/runtime/spu_abi.h).
//
// Rules:
// - The program's memory is its SPE's local store: its code and constants, its globals, its
//   stack and its heap are host windows of local-store addresses from 0 up
//   (sw/user/memory_windows.h), and must fit below kProgramTop; what does not fit is refused
//   when the PPE loads the program (spe_program_load), naming what overflowed.
// - A pointer the program hands an mfc_* call is translated to its local-store address; one
//   that is not the program's (a C library's thread-local block) fails the run naming the call.
// - Effective addresses are what the PPE handed over, passed through unchanged.
// - Every call is a span named after it on the SPU's timeline, and stalls as its channel
//   instruction does.
#pragma once
#include <cstdint>

#include "sw/cell/spu_sdk.h"
#include "sw/user/program_instance.h"

namespace hs::fw::cell_program {

// The top of the local store holds spe_context_run's parameters (cell_sdk::kRunParameters):
// a program's code, data, stack and heap lie below this page.
constexpr uint64_t kProgramTop = 256 * 1024 - 4096;

class SpuProgram {
 public:
  // `words`: speid, argp and envp of this run.
  SpuProgram(user::ProgramInstance& program, Hal& hal, const uint64_t words[3]);
  // The table the program's forwarders call (hs_spu_table).
  static const void* table();
  // Offers the table to `program` under its interface's name (its forwarders find it there).
  void provide_to(user::ProgramInstance& program);

  user::ProgramInstance& program() { return program_; }
  cell_sdk::Spu& spu() { return spu_; }
  void main_parameters(unsigned long long words[3]) const;
  // The local-store address of `p`, or the run fails naming `call`.
  uint32_t lsa(const volatile void* p) const;

 private:
  user::ProgramInstance& program_;
  cell_sdk::Spu spu_;
  uint64_t words_[3];
};

}  // namespace hs::fw::cell_program
