// The firmware hardware-abstraction layer: everything firmware may do to hardware.
//
// Firmware is plain C++ running in a modelled core's thread. It reaches memory and devices
// only through these calls, each of which the core turns into bus transactions (and so into
// PCIe TLPs when an address lies across a link) or into cycles of its own clock.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>

namespace hs::fw {

// A named value shown on a traced protocol step: a number or a text (a string literal, or
// text that outlives the call).
struct TraceArg {
  template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  TraceArg(const char* k, T v) : key(k), number(static_cast<int64_t>(v)) {}
  TraceArg(const char* k, const char* t) : key(k), text(t) {}
  const char* key;
  int64_t number = 0;
  const char* text = nullptr;
};

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
  // Only for an interrupt that cannot be lost: protocols use the timed wait below.
  virtual uint32_t wait_irq(uint32_t mask) = 0;
  // The same, giving up after `timeout_cycles` (> 0) of this core's clock: returns 0 then, and
  // the firmware polls the device's status registers instead (an interrupt may be lost or
  // late). Protocols take the timeout from their firmware parameters (sw/hal/irq_wait.h).
  virtual uint32_t wait_irq(uint32_t mask, uint64_t timeout_cycles) = 0;
  // A scheduler's sleep: until an interrupt line in `mask` is pending (taken and returned, as
  // above) or `cycles` (> 0) of this core's clock have passed (returns 0). Unlike the recovery
  // timeout above, the time always bounds the sleep; `mask` 0 sleeps for the time.
  virtual uint32_t wait_irq_for(uint32_t mask, uint64_t cycles) = 0;
  // Firmware found by polling, after a timed-out wait, the completion its interrupt should
  // have announced: counted and marked on this core's timeline. `protocol` is a literal.
  virtual void irq_recovered(const char* protocol) = 0;

  // Identity of the core running this firmware.
  virtual int core_index() const = 0;
  virtual const char* core_name() const = 0;

  // Marks a firmware phase on this core's timeline in the transaction trace.
  virtual void phase_begin(const char* name) = 0;
  virtual void phase_end() = 0;

  // Protocol steps (a message's send, its RTS, a receive) on this core's timeline in the
  // transaction trace. They may overlap each other, so each is named by a `key` unique among
  // this core's open steps; protocol_end ends the step with that key, adding its args. Cost
  // no simulated time; when tracing() is false they do nothing, so firmware may skip building
  // their args.
  // Each layer keeps its keys in its own top byte (kTraceKey*), so layers sharing a core never
  // collide.
  virtual bool tracing() const = 0;
  virtual void protocol_begin(const char* name, uint64_t key,
                              std::initializer_list<TraceArg> args) = 0;
  virtual void protocol_end(uint64_t key, std::initializer_list<TraceArg> args) = 0;

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

// The top byte of a protocol step's key: which layer's step it is.
constexpr uint64_t kTraceKeyDcmf = uint64_t{1} << 56;
constexpr uint64_t kTraceKeyAmiSend = uint64_t{2} << 56;
constexpr uint64_t kTraceKeyAmiReceive = uint64_t{3} << 56;
constexpr uint64_t kTraceKeySlmpm = uint64_t{4} << 56;
constexpr uint64_t kTraceKeyAmiStopSent = uint64_t{5} << 56;      // a receiver's STOP
constexpr uint64_t kTraceKeyAmiStopReceived = uint64_t{6} << 56;  // a sender's STOP
constexpr uint64_t kTraceKeyMpi = uint64_t{7} << 56;              // point-to-point requests

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
