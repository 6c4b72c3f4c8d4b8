// Monitors armed in every torus run. They watch the DMA engines and the network and fail the
// run on any violation of:
// - routing: every hop shortens the packet's route (only minimal +-x, +-y, +-z moves, wrap
//   links included) and every packet is delivered at its destination;
// - counters: each packet decrements its injection counter by exactly its payload; a value
//   write starts a new transfer on that counter;
// - streams claiming from one counter (the split transfer of seed 002, AMI variant B): the
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
  explicit TorusCheckers(torus::TorusMachine& m);
  const std::vector<SplitTransferRecord>& split_transfers() const { return done_; }
  uint64_t packets_checked() const { return packets_; }

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
  void on_injection(const torus::dma::InjectionEvent& e);
  void fail(const std::string& what);

  torus::TorusMachine& m_;
  std::map<std::pair<int, uint32_t>, Episode> episodes_;
  std::map<std::pair<int, int>, double> remote_gets_;  // (node, fifo) -> last arrival, ns
  std::vector<SplitTransferRecord> done_;
  uint64_t packets_ = 0;
};

}  // namespace hs::checkers
