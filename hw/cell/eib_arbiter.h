// The EIB's command bus and data arbiter, in bus cycles: who may use which ring, ramp and
// command slot when. Pure bookkeeping (no SystemC time), so it is tested cycle by cycle.
//
// Rules:
// - Command bus: one command per bus cycle; a command is granted the first free cycle at or
//   after it is ready.
// - Data phase of one command (at most 128 B, `cycles` bus cycles of 16 B) starting at cycle
//   t over `hops` hops: it needs the source element's on-ramp for [t, t + cycles), the
//   destination element's off-ramp as the data arrives, [t + hops, t + hops + cycles), and one
//   ring running the transfer's way round on which every segment of its path is free, and
//   fewer than `transfers_per_ring` transfers are under way, from t until its last 16 bytes
//   have crossed the last segment, [t, t + cycles + hops - 1). The path is the short way round
//   (eib_topology.h); at exactly 6 hops rings of both directions qualify. A transfer between
//   two ports of one element (0 hops) needs its ramps and no ring.
// - The arbiter grants the earliest cycle at or after the transfer is ready at which all of
//   that holds: a transfer whose ramps or every qualifying ring are taken waits for the
//   earliest cycle when its ramps and the segments along its path on some qualifying ring are
//   free. Several rings free at that cycle: the RingPolicy chooses.
// - Rings 0 .. rings/2-1 run clockwise, the rest counter-clockwise.
// - Time only moves on: after retire_before(c) nothing is asked about or booked before c.
//
// Bookings are kept per resource as spans of cycles (the command bus and each ramp: SpanSet;
// each ring: its transfers in order of start), so a grant costs the bookings near it, not the
// cycles it spans. testbench/tests/eib_arbiter_reference_test.cpp checks the grants against a
// cycle-by-cycle table of the rules above.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/cell/eib_topology.h"
#include "tlm/timing/span_set.h"

namespace hs::cell {

constexpr int kEibMaxRings = 8;

// What is booked in one bus cycle (as booked() reports it).
struct EibCycle {
  std::array<uint16_t, kEibMaxRings> segments{};  // bit i: segment i of the ring carries data
  std::array<uint8_t, kEibMaxRings> transfers{};  // transfers on the ring
  uint16_t on_ramps = 0;                          // bit p: element p's on-ramp is busy
  uint16_t off_ramps = 0;                         // bit p: element p's off-ramp is busy
  bool command = false;                           // the command bus took a command
};

// Which ring a transfer gets when several can start it at its earliest cycle.
class RingPolicy {
 public:
  virtual ~RingPolicy() = default;
  virtual const char* name() const = 0;
  // `fitting`: bit r set if ring r can carry the transfer; at least one is set.
  virtual int pick(uint32_t fitting) = 0;
};

// The lowest-numbered ring: transfers pack onto the first rings, leaving the last ones free.
class LowestRingPolicy : public RingPolicy {
 public:
  const char* name() const override { return "lowest"; }
  int pick(uint32_t fitting) override;
};

// Rings in turn: the first fitting ring after the one granted last, spreading the load.
class RoundRobinRingPolicy : public RingPolicy {
 public:
  const char* name() const override { return "round_robin"; }
  int pick(uint32_t fitting) override;

 private:
  int next_ = 0;
};

// "lowest" or "round_robin" (the names the EIB's ring_policy parameter accepts).
std::unique_ptr<RingPolicy> make_ring_policy(const std::string& name);

struct DataGrant {
  uint64_t start = 0;  // first bus cycle of the data phase
  int ring = -1;       // -1: 0 hops, no ring
  EibPath path;
};

class EibArbiter {
 public:
  EibArbiter(int rings, int transfers_per_ring, std::unique_ptr<RingPolicy> policy);

  int rings() const { return rings_; }
  bool clockwise(int ring) const { return ring < rings_ / 2; }
  const RingPolicy& policy() const { return *policy_; }

  // Nothing will be asked about cycles before `cycle` again (each resource drops its bookings
  // over by then when it is next asked about).
  void retire_before(uint64_t cycle);

  // Books the command bus in the first free cycle >= ready; returns that cycle.
  uint64_t grant_command(uint64_t ready);
  // Books a data phase of `cycles` bus cycles from `from` to `to` (the rules above).
  DataGrant grant_data(Element from, Element to, uint64_t ready, uint32_t cycles);

  // One access of several commands from `from` to `to`, command i moving cycles[i] bus
  // cycles, all ready at `ready`. A write (`with_commands`) grants each command its slot and
  // then its data from `arbitration_cycles` after it, the next command being ready the cycle
  // after that slot; a read's data phases follow one command phase already granted. Grants
  // and books exactly what grant_command and grant_data, called command by command so, would
  // (slots[i]: command i's slot, writes only); when nothing is booked ahead of the access on
  // the resources it uses, in one pass, each grant in closed form: back to back on the ramps,
  // on the rings the policy picks among those the access's own transfers leave free.
  void grant_access(Element from, Element to, uint64_t ready, const std::vector<uint32_t>& cycles,
                    bool with_commands, uint32_t arbitration_cycles, std::vector<uint64_t>& slots,
                    std::vector<DataGrant>& grants);

  // What is booked in `cycle` (not retired).
  EibCycle booked(uint64_t cycle) const;
  // Live bookings, all resources together (how much the arbiter holds).
  size_t live_bookings() const;

 private:
  // One transfer on a ring: its segments, held over [start, end).
  struct RingTransfer {
    uint64_t start, end;
    uint16_t segments;
  };
  // One ring's transfers, in order of start (ties: in order of booking).
  struct Ring {
    std::vector<RingTransfer> transfers;
    size_t head = 0;        // transfers before it are over
    uint64_t last_end = 0;  // the latest end booked: from there on the ring is free
  };

  // A transfer's way between two elements and the rings that run it the short way round.
  struct Route {
    EibPath cw, ccw;
    int hops;
    uint32_t allowed;  // bit r: ring r may carry it (none for 0 hops)
  };
  Route route(Element from, Element to) const;
  // The first data grant from `from` to `to` at or after `ready` (books nothing).
  DataGrant find_data(const Route& rt, SpanSet& on, SpanSet& off, uint64_t ready, uint32_t cycles);
  void book_data(const Route& rt, SpanSet& on, SpanSet& off, const DataGrant& g, uint32_t cycles);

  // `t` if ring r can carry `segments` over [t, t + held); otherwise a later cycle before
  // which it cannot (not necessarily the first at which it can).
  uint64_t ring_next(const Ring& ring, uint16_t segments, uint64_t t, uint32_t held) const;
  void book_ring(Ring& ring, uint16_t segments, uint64_t start, uint64_t end);
  // Drops the ring's transfers over before retired_.
  void retire(Ring& ring);

  int rings_;
  uint8_t per_ring_;
  std::unique_ptr<RingPolicy> policy_;
  SpanSet command_;
  std::array<SpanSet, kEibElements> on_ramp_, off_ramp_;  // by element position
  std::array<Ring, kEibMaxRings> ring_;
  uint64_t retired_ = 0;       // the latest retire_before
  uint64_t longest_hold_ = 0;  // the longest [start, end) booked on any ring
};

}  // namespace hs::cell
