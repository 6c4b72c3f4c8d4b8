// The RTL counter bank (rtl/dma_counter_bank.sv), verilated into SystemC, as a CounterBlock:
// each edge() sets its input pins, evaluates a falling and a rising clock edge, and reads its
// output pins, all inside the call (see hw/rtl_cosim/). Verilog parameters are fixed when the
// block is verilated (rtl/CMakeLists.txt); a simulation whose parameters differ is refused.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "hw/dma_counters/counter_bank_cycle.h"

namespace hs::counters {

// The shape and latencies the RTL was verilated with.
BankShape rtl_bank_shape(bool reception);
CounterTiming rtl_timing();

// Throws InputError, naming the parameters under `param_prefix`, if the RTL cannot stand for
// a bank of this shape and timing.
void check_rtl_matches(const std::string& param_prefix, const BankShape& shape,
                       const CounterTiming& timing);

class VerilatedCounterBlock : public CounterBlock {
 public:
  // Must be called during elaboration (the Verilated model is an sc_module named `name`).
  static std::unique_ptr<VerilatedCounterBlock> create(const char* name, bool reception);
  // Dumps the block's signals, every port and register, into the waveform (SignalTrace, which
  // must be open) from now on, under the block's name; call after elaboration.
  virtual void open_trace(uint64_t half_period_ps) = 0;
  virtual void close_trace() = 0;
  virtual uint64_t evaluations() const = 0;
};

}  // namespace hs::counters
