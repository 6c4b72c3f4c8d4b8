// Monitors armed in every torus run. They watch the DMA engines and the network and fail the
// run on any violation of (each rule a named check, constants below):
// - routing: every hop shortens the packet's route (only minimal +-x, +-y, +-z moves, wrap
//   links included) and every packet is delivered at its destination;
// - counters: each packet decrements its injection counter by exactly its payload; a value
//   write starts a new transfer on that counter;
// - streams claiming from one counter (the split transfer, AMI variant B): the
//   ascending packets take consecutive ranges up from where they began, the descending ones
//   down from where they began, the two never overlap, a direct put leaves only after a
//   remote get delivered its descriptor, and when the counter reaches zero the two streams
//   have met exactly.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hw/torus/node/torus_machine.h"
#include "tlm/check/checker.h"

namespace hs::checkers {

struct SplitTransferRecord {  // one completed split transfer, for tests and reports
  int node;
  uint32_t counter;
  uint64_t src;
  uint32_t length;
  uint32_t memory_fifo_bytes, direct_put_bytes;
  double first_put_ns;   // when the first direct-put packet left (-1: none)
  double remote_get_ns;  // when the acknowledgement's descriptor arrived (-1: none)
  double first_data_ns;  // when the first memory-FIFO data packet left
  double done_ns;
};

class TorusCheckers {
 public:
  // Arms the checkers on every node of `m` and its network.
  explicit TorusCheckers(torus::TorusMachine& m);
  const std::vector<SplitTransferRecord>& split_transfers() const { return done_; }
  uint64_t packets_checked() const { return packets_; }

  // The rules, as reports name them.
  static constexpr const char* kMinimalHop =
      "torus routing: every hop shortens the route (minimal links, wrap links included)";
  static constexpr const char* kDeliveredAtDestination =
      "torus routing: every packet is delivered at its destination";
  static constexpr const char* kExactDecrement =
      "torus counters: each packet decrements its injection counter by exactly its payload";
  static constexpr const char* kAscendingConsecutive =
      "split streams: the ascending stream takes consecutive ranges up from its start";
  static constexpr const char* kDescendingConsecutive =
      "split streams: the descending stream takes consecutive ranges down from its start";
  static constexpr const char* kNoOverlap =
      "split streams: the ascending and descending streams never overlap";
  static constexpr const char* kPutAfterRemoteGet =
      "split streams: a direct put leaves only after a remote get delivered its descriptor";
  static constexpr const char* kMeetAtZero =
      "split streams: when the counter reaches zero the two streams have met exactly";

  // What the checkers watch; the machine's observers call these.
  void on_hop(const torus::Packet& p, int from, int dir);
  void on_injection(const torus::dma::InjectionEvent& e);
  void on_remote_get(const torus::dma::RemoteGetEvent& e);
  void on_reception(const torus::dma::ReceptionEvent& e);
  void on_counter_write(int node, uint32_t counter, uint32_t value);

 private:
  struct Episode {
    uint32_t start_value = 0, value = 0;
    bool split = false;
    uint64_t src = 0;
    uint32_t length = 0;
    // The ascending stream has sent [low_start, low), the descending one [high, high_start).
    uint64_t low = 0, high = 0, low_start = 0, high_start = 0;
    bool any_low = false, any_high = false;
    double first_put_ns = -1, first_data_ns = -1, remote_get_ns = -1;
  };
  void check_split(Episode& ep, const torus::dma::InjectionEvent& e, const std::string& where);

  torus::TorusMachine& m_;
  Check &minimal_hop_, &delivered_, &exact_decrement_, &ascending_, &descending_, &no_overlap_,
      &put_after_get_, &meet_at_zero_;
  std::map<std::pair<int, uint32_t>, Episode> episodes_;
  std::map<std::pair<int, int>, double> remote_gets_;  // (node, fifo) -> last arrival, ns
  std::vector<SplitTransferRecord> done_;
  uint64_t packets_ = 0;
};

}  // namespace hs::checkers
