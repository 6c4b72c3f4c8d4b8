// The firmware hardware-abstraction layer: everything firmware may do to hardware.
//
// Firmware is plain C++ running in a modelled core's thread. It reaches memory and devices
// only through these calls, each of which the core turns into bus transactions (and so into
// PCIe TLPs when an address lies across a link) or into cycles of its own clock.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace hs::fw {

class Hal {
 public:
  virtual ~Hal() = default;

  // Memory by physical address as this core sees it; blocks for the access's latency.
  virtual void load(uint64_t addr, void* dst, size_t len) = 0;
  virtual void store(uint64_t addr, const void* src, size_t len) = 0;

  template <class T>
  T load(uint64_t addr) {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    load(addr, &v, sizeof v);
    return v;
  }
  template <class T>
  void store(uint64_t addr, const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    store(addr, &v, sizeof v);
  }

  // Atomic compare-and-swap of a 32-bit word in memory (the node's L2 atomics): if the word
  // holds `expected` it becomes `desired`; returns the value it held. No other access lands
  // between the read and the write.
  virtual uint32_t compare_and_swap(uint64_t addr, uint32_t expected, uint32_t desired) = 0;

  // Device registers (uncached, 4 or 8 bytes wide).
  virtual uint64_t reg_read(uint64_t addr, unsigned width = 4) = 0;
  virtual void reg_write(uint64_t addr, uint64_t value, unsigned width = 4) = 0;

  // Spends `n` cycles of this core's clock computing.
  virtual void compute(uint64_t n) = 0;
  // The core's timebase: cycles since reset.
  virtual uint64_t cycles() = 0;
  virtual double clock_hz() const = 0;

  // Blocks until an interrupt line in `mask` is pending; returns those lines and clears them.
  virtual uint32_t wait_irq(uint32_t mask) = 0;

  // Identity of the core running this firmware.
  virtual int core_index() const = 0;
  virtual const char* core_name() const = 0;

  // Marks a firmware phase on this core's timeline in the transaction trace.
  virtual void phase_begin(const char* name) = 0;
  virtual void phase_end() = 0;

  // A line of firmware output: on standard error (stamped with the simulated time and this
  // core, unless the run is quiet) and on this core's timeline in the transaction trace.
  // Costs no simulated time (a debugger's view, not a device).
  virtual void log(const std::string& message) = 0;

  // Reports a firmware-detected error (bad data, API misuse) and stops this firmware; the
  // run fails with exit code 1.
  [[noreturn]] virtual void fail(const std::string& message) = 0;
  // Evaluates a named firmware invariant (reports list it by `check`, a string literal); a
  // failure stops this firmware as fail() does.
  virtual void check(bool ok, const char* check, const std::string& message) {
    if (!ok) fail(std::string(check) + ": " + message);
  }
};

// RAII helper for a traced firmware phase.
class Phase {
 public:
  Phase(Hal& hal, const char* name) : hal_(hal) { hal_.phase_begin(name); }
  ~Phase() { hal_.phase_end(); }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  Hal& hal_;
};

}  // namespace hs::fw
