// A firmware HAL for code that only spends cycles (OS services, caches): it totals what is
// charged and treats any bus access as a test failure. Lets such firmware be exercised, and
// benchmarked, without building a machine.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "sw/hal/hal.h"

namespace hs::testing {

class CycleHal : public fw::Hal {
 public:
  uint64_t spent = 0;
  void compute(uint64_t n) override { spent += n; }
  void load(uint64_t, void*, size_t) override { unexpected("load"); }
  void store(uint64_t, const void*, size_t) override { unexpected("store"); }
  uint32_t compare_and_swap(uint64_t, uint32_t, uint32_t) override { unexpected("atomic"); }
  uint64_t reg_read(uint64_t, unsigned) override { unexpected("reg_read"); }
  void reg_write(uint64_t, uint64_t, unsigned) override { unexpected("reg_write"); }
  uint64_t cycles() override { return spent; }
  double clock_hz() const override { return 1.8e9; }
  uint32_t wait_irq(uint32_t) override { unexpected("wait_irq"); }
  uint32_t wait_irq(uint32_t, uint64_t) override { unexpected("wait_irq"); }
  uint32_t wait_irq_for(uint32_t, uint64_t) override { unexpected("wait_irq_for"); }
  void irq_recovered(const char*) override { unexpected("irq_recovered"); }
  int core_index() const override { return 0; }
  const char* core_name() const override { return "cycle-hal"; }
  void phase_begin(const char*) override {}
  void phase_end() override {}
  bool tracing() const override { return false; }
  void protocol_begin(const char*, uint64_t, std::initializer_list<fw::TraceArg>) override {}
  void protocol_end(uint64_t, std::initializer_list<fw::TraceArg>) override {}
  void log(const std::string& m) override { logged.push_back(m); }
  std::vector<std::string> logged;  // what the firmware logged, in order
  [[noreturn]] void fail(const std::string& m) override { throw std::runtime_error(m); }

 private:
  [[noreturn]] static void unexpected(const char* what) {
    throw std::logic_error(std::string("CycleHal: unexpected ") + what);
  }
};

}  // namespace hs::testing
