// The compute node's DMA engine. Injection: circular FIFOs of 32-byte descriptors in node
// memory (head/tail registers, normal or high priority); the engine fetches a descriptor,
// reads its buffer and cuts it into packets of up to 256 bytes, one packet at a time from the
// FIFO chosen by priority and then round robin, decrementing the descriptor's injection
// counter by each packet's payload. Reception: memory-FIFO packets become entries of a
// reception FIFO in memory, direct-put packets are written at their reception counter's base +
// offset (bounds-checked) and decrement it, and remote-get packets' descriptors are appended
// to a local injection FIFO, all without a core.
//
// Faults (off by default, hw/dma/descriptor_faults.h; events are the descriptors each node's
// engine fetches): `bad_descriptor_*` points a fetched descriptor's source at kPoisonAddress,
// so its read fails and the injection engine halts (torus_dma_interface.h: STATUS, the error
// registers and kErrorIrq tell the firmware); `stall_*` stops the injection engine for good. A
// LivenessCheck fails the run, naming the engine, when its injection FIFOs hold descriptors and
// it makes no progress for `liveness_timeout`.
//
// Rule: the engine's bus (node memory) never waits inside b_transport. The reception unit
// takes packets in a method, where a wait is a SystemC error.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/dma/descriptor_faults.h"
#include "hw/dma_counters/counter_bank.h"
#include "hw/dma_counters/verilated_counter_block.h"
#include "hw/torus/dma/torus_dma_interface.h"
#include "hw/torus/network/torus_network.h"
#include "tlm/check/checker.h"
#include "tlm/check/liveness.h"
#include "tlm/link/delivery_queue.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/clock.h"
#include "tlm/timing/timed_queue.h"
#include "tlm/timing/timeline.h"

namespace hs::torus::dma {

struct DmaConfig {
  double clock_hz = 850e6;
  uint32_t descriptor_cycles = 8;  // fetch-to-first-packet decode
  uint32_t packet_cycles = 4;      // per packet: header build and injection handshake
  int injection_fifos = 16;
  int reception_fifos = 4;
  uint32_t reception_buffer = 8;  // packets the reception unit holds while writing memory
  counters::BankShape injection_bank{4, 64, false};
  counters::BankShape reception_bank{4, 64, true};
  counters::CounterTiming counter_timing;
  bool rtl_counters = false;  // the Verilated RTL counter banks instead of the C++ model

  // Declares every parameter under `prefix` (e.g. torus.node.dma).
  static DmaConfig declare(const std::string& prefix);
};

// One packet leaving the engine, as checkers see it.
struct InjectionEvent {
  int node;
  int fifo;
  bool high_priority_fifo;
  const Descriptor* descriptor;
  uint64_t lo, hi;  // source bytes [lo, hi) this packet carries
  uint32_t counter_after;
  const Packet* packet;
};
// Descriptors a remote-get packet appended to a local injection FIFO.
struct RemoteGetEvent {
  int node;
  int fifo;
  int from;
  uint32_t descriptors;
};
// A packet the reception unit finished (memory written, counter decremented).
struct ReceptionEvent {
  int node;
  const Packet* packet;
  uint64_t addr;  // where its payload went (direct put, memory FIFO entry)
};

class TorusDma : public sc_core::sc_module, public NodeEndpoint {
 public:
  tlm_utils::simple_initiator_socket<TorusDma> bus;     // to node memory
  tlm_utils::simple_target_socket<TorusDma> registers;  // MMIO window, kRegisterSpan bytes

  SC_HAS_PROCESS(TorusDma);
  IrqOut irq;  // the lines of torus_dma_interface.h, to the node's cores

  TorusDma(sc_core::sc_module_name name, int node, TorusNetwork& network, const DmaConfig& cfg,
           int initiator_id);

  counters::CounterBank& injection_counters() { return *inj_counters_; }
  counters::CounterBank& reception_counters() { return *rec_counters_; }
  const DmaConfig& config() const { return cfg_; }
  uint32_t error() const { return error_; }

  void observe_injection(std::function<void(const InjectionEvent&)> fn) {
    injection_observers_.push_back(std::move(fn));
  }
  void observe_remote_get(std::function<void(const RemoteGetEvent&)> fn) {
    remote_get_observers_.push_back(std::move(fn));
  }
  void observe_reception(std::function<void(const ReceptionEvent&)> fn) {
    reception_observers_.push_back(std::move(fn));
  }
  // Test-only fault, so tests can prove the counter checker fires: the next packet sent
  // decrements its injection counter by `extra` bytes more than its payload.
  void fault_skew_next_decrement(uint32_t extra) { fault_counter_skew_ = extra; }

  // NodeEndpoint (called by the network).
  bool accept(const Packet& p) override;
  void deliver(Packet* p) override;
  void injection_ready(int queue) override;

  struct Totals {  // for machine-wide aggregates
    uint64_t packets_sent = 0, bytes_sent = 0, packets_received = 0, bytes_received = 0;
  };
  const Totals& totals() const { return totals_; }
  // Requests both counter banks took, and those that waited for a busy clock edge.
  uint64_t counter_requests() const {
    return inj_counters_->edges().requests() + rec_counters_->edges().requests();
  }
  uint64_t counter_slipped() const {
    return inj_counters_->edges().slipped() + rec_counters_->edges().slipped();
  }

 private:
  struct InjFifo {
    uint64_t start = 0, end = 0, head = 0, tail = 0;
    uint32_t config = 0;
    bool loaded = false;
    Descriptor d;
    uint64_t loaded_from = 0;
    sc_core::sc_time loaded_at;  // when its fetch began (the trace's descriptor span)
    uint32_t progress = 0;
    uint32_t reserved = 0;  // descriptor slots promised to accepted remote-get packets
    uint32_t writing = 0;   // of those, being written to memory
    bool high() const { return config & kConfigHighPriority; }
    bool has_work() const { return loaded || head != tail; }
  };
  struct RecFifo {
    uint64_t start = 0, end = 0, head = 0, tail = 0;
    uint32_t config = 0;
    uint32_t reserved = 0;  // entries promised to accepted packets
    uint32_t writing = 0;   // of those, being written to memory
  };

  std::unique_ptr<counters::CounterBank> make_counters(const char* what,
                                                       const counters::BankShape& shape);
  void start_of_simulation() override;
  // The injection engine is a method, not a thread: a machine of any size holds no stack per
  // engine. It relies on the node bus's targets (memory, these registers) never waiting: an
  // access books its time as annotated delay, which the engine then lets pass (next_trigger).
  void injection_engine();
  void finish_step();
  int pick_fifo();
  int torus_queue(int fifo) const;
  bool load_descriptor(int f, sc_core::sc_time& delay);
  bool validate(const Descriptor& d, std::string& why) const;
  bool build_packet(int f, sc_core::sc_time& delay);
  void inject_packet(int f);
  void finish_descriptor(int f);
  void retry_refused();
  // The reception unit takes a packet from its buffer (on a delivery worker, so the memory
  // behind the bus may wait): writes it to memory and schedules its completion.
  void take(Packet* p);
  void complete(Packet*& p);

  // An injection access (for the FIFO of the step in progress); a failed one halts injection.
  bool access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len,
              sc_core::sc_time& delay);
  void halt_on_bus_error(uint64_t addr, const std::string& why);
  // Injection FIFOs holding descriptors, for the liveness check (busy while any does).
  bool injection_pending() const;
  std::string outstanding() const;
  void fail(Error code, const std::string& why);
  static const char* check_name(Error code);
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // A counter-bank access adds its wait for a busy edge to `delay`.
  bool reg_read(uint64_t offset, unsigned width, uint64_t& v, sc_core::sc_time& delay);
  bool reg_write(uint64_t offset, uint64_t v, unsigned width, sc_core::sc_time& delay);
  static uint64_t advance(uint64_t pos, uint64_t start, uint64_t end, uint64_t bytes);
  // Transaction trace: a thread per injection FIFO with a span per descriptor, a counter track
  // per FIFO with its occupancy (descriptors or entries) and per DMA counter with its value.
  // Tracks are made on first use; callers test trace_on_.
  void trace_descriptor(int f);
  int fifo_track(int f);  // the FIFO's thread track (made on first use), -1 when not traced
  void trace_fifo(bool injection, size_t f);
  void trace_counter(bool reception, uint32_t c);
  int trace_track(int& slot, const std::string& name, const char* unit);
  static uint64_t used(uint64_t head, uint64_t tail, uint64_t start, uint64_t end);

  int node_;
  TorusNetwork& net_;
  Origin origin_;     // the engine's place in the order of same-time wake-ups
  Alarm step_alarm_;  // the injection engine's step in progress is due
  bool trace_on_;
  std::vector<int> fifo_tracks_, counter_tracks_;  // counters: injection bank, then reception
  std::vector<int> occupancy_tracks_;              // injection FIFOs, then reception FIFOs
  DmaConfig cfg_;
  Clock clock_;
  std::unique_ptr<IrqRenumber> inj_irq_, rec_irq_;            // counter groups to their lines
  std::vector<counters::VerilatedCounterBlock*> rtl_traces_;  // RTL banks in the waveform
  std::unique_ptr<counters::CounterBank> inj_counters_, rec_counters_;
  std::vector<InjFifo> inj_;
  std::vector<RecFifo> rec_;
  int rr_high_ = 0, rr_normal_ = 0;
  sc_core::sc_event work_;
  void wake_engine();  // notifies work_ for the next delta cycle
  // The injection engine's place (when activations are kept, timeline.h): what woke it, noted
  // as its activation starts: its step's ringing, its own delta wake-up a step's end takes
  // (`due`, noted at the ringing), or `work_` (noted by whoever notified it first).
  class EnginePlace final : public ActivationPlace {
   public:
    EnginePlace(const TorusDma& dma, const sc_core::sc_object* process);
    ~EnginePlace();
    EnginePlace(const EnginePlace&) = delete;
    EnginePlace& operator=(const EnginePlace&) = delete;
    bool append_place(std::vector<uint64_t>& key) const override;
    enum class Wake : uint8_t { Ringing, Due, Work } wake = Wake::Work;
    DeltaNote due, work;

   private:
    const TorusDma& dma_;
    const sc_core::sc_object* process_;
  };
  std::unique_ptr<EnginePlace> engine_place_;
  // The step in progress: a descriptor fetched and decoded (or ended without a packet), or a
  // packet read and its header built, due to leave when the step's time has passed.
  enum class Step : uint8_t { None, Descriptor, Packet };
  Step step_ = Step::None;
  bool step_due_ = false;  // its time has come: it finishes in the next delta cycle
  int step_fifo_ = 0;
  sc_core::sc_time step_start_;
  struct Building {
    Packet* packet = nullptr;
    uint64_t lo = 0;  // source bytes [lo, lo + bytes)
    uint32_t bytes = 0;
  };
  Building building_;
  TaggedPayload<InitiatorExt> txn_;     // the injection engine's accesses
  TaggedPayload<InitiatorExt> rx_txn_;  // the reception unit's accesses
  uint32_t rx_held_ = 0;                // packets accepted, not yet completed
  bool refused_ = false;                // a packet waits in the network for room
  sc_core::sc_time last_completion_ = sc_core::SC_ZERO_TIME;
  DeliveryQueue<Packet*> arrivals_;  // accepted packets the reception unit has yet to take
  TimedQueue<Packet*> completions_;
  uint32_t error_ = kNoError;
  hs::dma::HaltRecord halt_;
  int error_fifo_ = 0;
  bool stalled_ = false;  // the stall fault hung the injection engine
  uint32_t fault_counter_skew_ = 0;
  Check* checks_[kBadFifo + 1] = {};  // the named check of each error code
  Totals totals_;
  std::vector<std::function<void(const InjectionEvent&)>> injection_observers_;
  std::vector<std::function<void(const RemoteGetEvent&)>> remote_get_observers_;
  std::vector<std::function<void(const ReceptionEvent&)>> reception_observers_;

  StatGroup stats_;
  Counter& descriptors_;
  Counter& sent_memfifo_;
  Counter& sent_put_;
  Counter& sent_get_;
  Counter& bytes_sent_;
  Counter& received_memfifo_;
  Counter& received_put_;
  Counter& received_get_;
  Counter& bytes_received_;
  Counter& remote_descriptors_;
  Counter& refusals_;
  Counter& errors_;
  BusyTime& injection_busy_;
  std::unique_ptr<hs::dma::DescriptorFaults> faults_;
  std::unique_ptr<LivenessCheck> liveness_;
};

}  // namespace hs::torus::dma
