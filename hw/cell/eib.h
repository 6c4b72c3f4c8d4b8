// The Element Interconnect Bus as built: twelve elements round four data rings, each element
// with one on-ramp and one off-ramp, and a command bus in front of the data arbiter.
//
// - Elements and their order round the rings: eib_topology.h. Masters and targets join the
//   EIB at an element (connect / attach): each SPE at its own, the PPE (and the interrupt
//   controller beside it) at the PPE, the DRAM at the MIC, the PCIe links and the DMA engine
//   on the I/O bridge at IOIF0, the Ethernet links at IOIF1.
// - Timing is in bus cycles at half the core clock (1.6 GHz for a 3.2 GHz core); transfers
//   start on bus-clock edges.
// - An access is split into commands of at most 128 B (the MFC already issues no larger
//   ones). Each command takes one slot on the command bus (one command per bus cycle), and
//   its data may move `arbitration_cycles` after that slot (the command phase: snoop and
//   combined response). Writes move their data before reaching the target, reads after it
//   answered (the target starts once the first command is through).
// - A command's data phase moves 16 B per bus cycle, ceil(bytes / 16) cycles, through the
//   source element's on-ramp, the segments along the short way round on one ring of that
//   direction, and the destination element's off-ramp; data moves one hop per bus cycle, and
//   the path stays the transfer's until its last 16 B have crossed it. A ring carries up to
//   `transfers_per_ring` (3) transfers whose segments do not overlap. The data arbiter grants
//   the earliest cycle at which all of it is free (eib_arbiter.h states the rules;
//   `ring_policy` picks among rings free at once).
// - What limits what: a ramp moves 16 B per bus cycle (25.6 GB/s out and 25.6 GB/s in per
//   element); the command bus 128 B per bus cycle (204.8 GB/s, the EIB's peak); the rings
//   4 x 3 x 16 B per bus cycle (307.2 GB/s raw) when paths do not overlap, less when they do.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/cell/eib_arbiter.h"
#include "hw/cell/lock_line.h"
#include "tlm/bus/router.h"
#include "tlm/timing/clock.h"

namespace hs::cell {

class Eib : public Router {
 public:
  Eib(sc_core::sc_module_name name, double core_clock_hz);

  // Binds a master's socket to the EIB at `element` (masters bind only through here).
  template <class Socket>
  void connect(Socket& master, Element element) {
    master.bind(upstream);
    master_at_.push_back(element);
  }
  // Maps [base, base + size) to `target`, which sits at `element` (`translate`: the target sees
  // addresses from the window's base; else the EIB's own).
  void attach(TargetSocket& target, uint64_t base, uint64_t size, const std::string& window_name,
              Element element, bool translate = true);

  // Shown every access at the moment the EIB performs it (the atomic units' lock lines).
  void set_snoop(EibSnoop* snoop) { snoop_ = snoop; }

  double peak_bytes_per_second() const;           // the command bus's limit
  double ring_capacity_bytes_per_second() const;  // every ring full with disjoint transfers
  const EibArbiter& arbiter() const { return *arbiter_; }
  const Clock& bus_clock() const { return bus_clock_; }

 protected:
  void before_target(const Route& route, tlm::tlm_generic_payload& gp,
                     sc_core::sc_time& delay) override;
  void after_target(const Route& route, tlm::tlm_generic_payload& gp,
                    sc_core::sc_time& delay) override;

 private:
  struct RingStats {
    Counter& bytes;
    Counter& transfers;
    BusyTime& busy;
  };
  struct RampStats {
    Counter& bytes;
    BusyTime& busy;
  };

  void end_of_elaboration() override;
  // A read's commands, from cycle `ready`: the cycle the first is through the command phase.
  uint64_t command_phase(uint64_t ready, uint64_t bytes);
  // Every command's data phase from `from` to `to`, from cycle `ready` (each after its own
  // command if `with_commands`: a write); the cycle the last byte arrives.
  uint64_t data_phase(Element from, Element to, uint64_t ready, uint64_t bytes, bool with_commands);

  Clock bus_clock_;
  uint32_t ring_width_;
  uint32_t arbitration_cycles_;
  int transfers_per_ring_;
  std::unique_ptr<EibArbiter> arbiter_;
  EibSnoop* snoop_ = nullptr;
  std::vector<Element> master_at_;                // by upstream port
  std::vector<Element> target_at_;                // by downstream port
  std::vector<sc_core::sc_time> time_by_cycles_;  // data-phase lengths
  // One access's commands: their data-phase cycles, slots and grants (reused, not allocated).
  std::vector<uint32_t> cycles_;
  std::vector<uint64_t> slots_;
  std::vector<DataGrant> grants_;
  static constexpr uint32_t kMaxHops = kEibElements / 2;
  // By cycles * (kMaxHops + 1) + hops: a transfer's share of its ring, and of all the rings.
  std::vector<std::array<sc_core::sc_time, 2>> ring_share_;
  Counter& bytes_;
  Counter& commands_;
  BusyTime& command_busy_;
  BusyTime& ring_busy_;
  std::vector<RingStats> ring_stats_;
  std::vector<int> ring_tracks_;                           // transaction-trace tracks, by ring
  std::vector<RampStats> on_ramp_stats_, off_ramp_stats_;  // by element position
};

}  // namespace hs::cell
