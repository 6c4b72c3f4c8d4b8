// A processor core that runs firmware in its own thread and implements the firmware HAL:
// loads, stores and register accesses become bus transactions on `bus`; compute() spends
// cycles of the core's clock; interrupts are latched lines that devices raise on the core's
// interrupt input (the core is an IrqIn: pins bind to it, tlm/irq/interrupt_pin.h).
//
// Interrupt faults (off by default) act on the core's interrupt input, the one place every
// source's interrupt passes: `irq_drop_*` loses an interrupt, `irq_late_*` delivers it
// `irq_late_delay` later. Events are the interrupts raised at this core, numbered from 1.
// A wait with a timeout (wait_irq(mask, timeout)) lets firmware recover from a lost one. Its
// timer is armed only when this core has interrupt faults: otherwise no interrupt is lost,
// and a deadlocked run goes idle (and is reported) rather than polling forever.
//
// Firmware runs in a SystemC thread (Execution::Thread) or in a fiber resumed by a method
// process (Execution::Fiber, tlm/kernel/fiber.h), which a machine of tens of thousands of
// cores needs. A fiber core relies on its bus never blocking inside b_transport (the
// targets annotate their delay): a target that called wait() would stop the run with the
// kernel's error, unless the core is told its bus may block (set_bus_may_block: its accesses
// then go out from a thread of their own, which the fiber waits for). Both run the same
// firmware with the same timing; each waits in block().
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "sw/hal/hal.h"
#include "tlm/fault/fault_injector.h"
#include "tlm/irq/interrupt_pin.h"
#include "tlm/kernel/fiber.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"
#include "tlm/timing/timeline.h"

namespace hs {

using Firmware = std::function<void(fw::Hal&)>;

class Core : public sc_core::sc_module, public fw::Hal, public IrqIn, private ActivationPlace {
 public:
  tlm_utils::simple_initiator_socket<Core> bus;

  // Activity levels shown on the core's waveform signal, by name (core.cpp names them).
  enum class State : int { Idle = 0, Compute = 1, MemoryStall = 2, WaitIrq = 3, Done = 4 };

  enum class Execution { Thread, Fiber };

  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name name, double default_clock_hz, int index,
       Execution execution = Execution::Thread);
  ~Core() override;

  void set_firmware(Firmware fw) { firmware_ = std::move(fw); }
  // Before the end of elaboration: the firmware's stack, instead of the stack_size parameter's,
  // and (fiber cores) whether it has a guard page below it (tlm/kernel/fiber.h).
  void set_stack(uint64_t bytes, bool guarded) {
    stack_bytes_ = bytes;
    stack_guarded_ = guarded;
  }
  // Before the end of elaboration: runs the firmware in a fiber instead (a user program's
  // instance takes its stack from its core's fiber, sw/user/program_instance.h).
  void set_execution(Execution e) { execution_ = e; }
  // Before the end of elaboration: a fiber core whose accesses cross links that wait for
  // credits inside b_transport (a host core reaching its accelerators, a PPE reaching the
  // host) issues them from a helper thread and waits for it.
  void set_bus_may_block(bool may) { bus_may_block_ = may; }
  bool has_firmware() const { return static_cast<bool>(firmware_); }
  bool finished() const { return state_ == static_cast<int>(State::Done); }
  State state() const { return static_cast<State>(state_); }
  // The firmware phases open now, outermost first, joined by " > " (empty if none): where a
  // core that never finishes is stuck.
  std::string open_phases() const;
  // Writes the phases open now as spans ending at `at`, marked unfinished: a run that stops
  // with the firmware inside them (a deadlock, a crash elsewhere, a time limit) still shows
  // where each core was.
  void trace_open_phases(const sc_core::sc_time& at) const;
  uint64_t compute_cycles() const { return compute_cycles_.value; }
  uint64_t register_accesses() const { return reg_accesses_.value; }

  // fw::Hal
  void load(uint64_t addr, void* dst, size_t len) override;
  void store(uint64_t addr, const void* src, size_t len) override;
  using fw::Hal::load;
  using fw::Hal::store;
  uint32_t compare_and_swap(uint64_t addr, uint32_t expected, uint32_t desired) override;
  uint64_t reg_read(uint64_t addr, unsigned width) override;
  void reg_write(uint64_t addr, uint64_t value, unsigned width) override;
  void compute(uint64_t n) override;
  uint64_t cycles() override;
  double clock_hz() const override { return clock_.hz(); }
  uint32_t wait_irq(uint32_t mask) override;
  uint32_t wait_irq(uint32_t mask, uint64_t timeout_cycles) override;
  uint32_t wait_irq_for(uint32_t mask, uint64_t cycles) override;
  void irq_recovered(const char* protocol) override;
  int core_index() const override { return index_; }
  const char* core_name() const override { return name(); }
  void phase_begin(const char* phase) override;
  void phase_end() override;
  bool tracing() const override { return track_ >= 0; }
  void protocol_begin(const char* name, uint64_t key,
                      std::initializer_list<fw::TraceArg> args) override;
  void protocol_end(uint64_t key, std::initializer_list<fw::TraceArg> args) override;
  void log(const std::string& message) override;
  [[noreturn]] void fail(const std::string& message) override;
  void check(bool ok, const char* check, const std::string& message) override;

 private:
  // IrqIn: a line raised on a pin bound to this core; lines a source retracts (its latch was
  // cleared by a register write), so a pending or late interrupt on them is not taken. Lines
  // the core takes are reported back to the pins (IrqIn::taken).
  void raise_irq(unsigned line) override;
  void withdraw_irq(uint32_t lines) override;

  friend void append_activation_place(const Core& core, std::vector<uint64_t>& key);
  // ActivationPlace: the firmware's process, registered when activations are kept.
  bool append_place(std::vector<uint64_t>& key) const override;

  struct Abort {};  // unwinds the firmware after fail()
  void end_of_elaboration() override;
  void run();
  void step();  // a fiber core's method: runs the firmware to its next blocking point
  // The blocking points: until a time has passed, until an event, or whichever comes first.
  // Time passes on an alarm of the timeline (tlm/timing/timeline.h), so same-time wake-ups
  // keep their order. A fiber core sets its method's next trigger and yields; while its fiber
  // unwinds it returns at once.
  void block(const sc_core::sc_time& t) {
    timer_->ring_in(t);
    block_on(timer_->event());
  }
  void block(const sc_core::sc_event& e) { block_on(e); }
  void block(const sc_core::sc_time& t, const sc_core::sc_event& e) {
    timer_->ring_in(t);
    block_on(timer_->event() | e);
    timer_->cancel();
  }
  template <class Until>
  void block_on(const Until& until) {
    if (!fiber_) return sc_core::wait(until);
    if (fiber_->unwinding()) return;
    sc_core::next_trigger(until);
    fiber_->yield();
  }
  bool unwinding() const { return fiber_ && fiber_->unwinding(); }
  void access(tlm::tlm_command cmd, uint64_t addr, void* data, size_t len, bool mmio);
  void set_state(State s) { state_ = static_cast<int>(s); }
  uint32_t take_irqs(uint32_t mask, const sc_core::sc_time& start);
  void deliver(unsigned line);
  void deliver_late();

  TaggedPayload<InitiatorExt> txn_;  // reused for every access of this core's thread
  Clock clock_;
  int index_;
  uint64_t access_cycles_;
  Firmware firmware_;
  Execution execution_;
  uint64_t stack_bytes_;
  bool stack_guarded_ = false;
  std::string stack_param_;  // its parameter's name, for the overflow message
  std::unique_ptr<Fiber> fiber_;
  const sc_core::sc_object* process_ = nullptr;  // the firmware's, while its place is registered
  // The helper thread of a fiber core whose bus may block: one access at a time.
  struct BusProxy {
    tlm::tlm_generic_payload* gp = nullptr;
    sc_core::sc_time delay;
    bool busy = false;
    sc_core::sc_event start, done;
  };
  bool bus_may_block_ = false;
  std::unique_ptr<BusProxy> proxy_;
  void transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  uint32_t irq_pending_ = 0;
  sc_core::sc_event irq_event_;
  DeltaNote irq_note_;  // who delivered the interrupt a waiting core wakes for (activations kept)
  std::unique_ptr<FaultInjector> irq_drop_, irq_late_;
  sc_core::sc_time irq_late_delay_;
  struct LateIrq {
    unsigned line;
    bool live;  // false once withdrawn
    sc_core::sc_time due;
  };
  std::deque<LateIrq> late_irqs_;  // due in order: one delay for all
  Origin origin_;                  // the core's place in the order of same-time wake-ups
  // Made only where needed (a large machine's idle cores carry no event): the firmware's timed
  // waits, and the ringing of the front late interrupt (with irq_late faults).
  std::unique_ptr<Alarm> timer_, late_;
  int state_ = 0;  // State, as int for sc_trace
  struct OpenPhase {
    const char* name;
    sc_core::sc_time start;
  };
  std::vector<OpenPhase> phases_;

  StatGroup stats_;
  Counter& loads_;
  Counter& stores_;
  Counter& bytes_loaded_;
  Counter& bytes_stored_;
  Counter& reg_accesses_;
  Counter& compute_cycles_;
  Counter& irqs_taken_;
  Counter& irqs_dropped_;
  Counter& irqs_delayed_;
  Counter& irq_timeouts_;
  Counter& irq_recoveries_;
  BusyTime& compute_time_;
  BusyTime& stall_time_;
  BusyTime& irq_wait_time_;
  Histogram& load_latency_;
  int track_;
};

}  // namespace hs
