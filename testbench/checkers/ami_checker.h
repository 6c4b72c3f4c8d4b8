// The AMI protocol checker: it listens on the firmware's trace port (and, on the torus, to
// the DMA engines' direct puts) and fails the run on any violation of
// - the injection FIFO: never more than N descriptors; each listed callback called once,
//   only after the transfer counter passed its descriptor; the pending count equal to
//   listed-but-not-called callbacks;
// - STOP: no eager packet posted for a message after its sender processed the STOP;
// - commitment: no byte of a receive buffer committed twice (by a firmware copy or by RDMA),
//   and every byte committed exactly once when the receive completes;
// - B: the final GET covers exactly [E, bottom) with E from the CTS; C: the PUT covers exactly
//   [E, size) with E the sender's eager bytes at the STOP;
// - completion: a SEND (other than the eager baseline's) completes only after its ACK;
// - temporary space: never more in use than configured.
// Each rule is a named check (ami_rules below). It also keeps per-message records for tests
// and reports.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sw/ami/byte_ranges.h"
#include "sw/ami/trace.h"
#include "testbench/checkers/partition_log.h"

namespace hs::torus {
class TorusMachine;
}

namespace hs::checkers {

struct AmiMessageRecord {
  int src = 0, dest = 0;
  uint32_t msg = 0, size = 0;
  fw::ami::Protocol protocol = fw::ami::Protocol::StopB;
  fw::ami::StopCause stop = fw::ami::StopCause::None;
  int64_t eager_at_stop = -1;  // E at the sender when it processed the STOP
  int64_t cts = -1;            // E the receiver got
  uint32_t bottom_lo = 0;      // lowest bottom GET byte (size: none)
  int64_t final_lo = -1, final_hi = -1, put_lo = -1, put_hi = -1;
  uint64_t eager_posted = 0, discarded = 0, committed_by_rdma = 0, committed_by_copy = 0;
  int gets = 0;
  double stop_ns = -1, stop_processed_ns = -1, first_bottom_ns = -1, first_rdma_ns = -1,
         last_eager_ns = -1, done_ns = -1;
  bool acked = false, send_done = false, receive_done = false;
};

// The rules, as reports name them.
namespace ami_rules {
constexpr const char* kFifoBound = "AMI callbacks: the injection FIFO never holds more than N";
constexpr const char* kListedOnce = "AMI callbacks: each callback is listed once";
constexpr const char* kCalledOnceIfListed =
    "AMI callbacks: only listed callbacks are called, each once";
constexpr const char* kCalledAfterCounter =
    "AMI callbacks: a callback runs only after the transfer counter passed its descriptor";
constexpr const char* kPendingCount =
    "AMI callbacks: the pending count equals callbacks listed but not called";
constexpr const char* kNoEagerAfterStop =
    "AMI STOP: no eager packet is posted after the sender processed the STOP";
constexpr const char* kEagerInOrder = "AMI STOP: eager bytes are posted in order without gaps";
constexpr const char* kStopOnce = "AMI STOP: the sender processes each STOP once";
constexpr const char* kStopEagerBytes = "AMI STOP: E at the STOP equals the eager bytes posted";
constexpr const char* kCtsCarriesE = "AMI variant B: the CTS carries the sender's E";
constexpr const char* kFinalGet = "AMI variant B: the final GET covers exactly [E, bottom)";
constexpr const char* kPutCoversRest = "AMI variant C: the PUT covers exactly [E, size)";
constexpr const char* kNoByteTwice = "AMI commitment: no receive-buffer byte is committed twice";
constexpr const char* kAllBytesOnce =
    "AMI commitment: every byte is committed when the receive completes";
constexpr const char* kSendDoneOnce = "AMI completion: each SEND completes once";
constexpr const char* kSendDoneAfterAck =
    "AMI completion: a SEND (not the eager baseline's) completes only after its ACK";
constexpr const char* kTempSpace = "AMI temporary space: never more in use than configured";
}  // namespace ami_rules

class AmiChecker : public fw::ami::AmiTrace {
 public:
  // Registers every rule, so a report lists them all even when a run never reaches one.
  AmiChecker();
  // Reports the torus DMA engines' direct puts (those of this process's nodes) to `trace` (the
  // checker, or a parallel run's log) as RDMA landings (a test hook reports one twice:
  // HYBRIDSIM_TEST_AMI_PUT_TWICE, ami_checker.cpp).
  static void watch(torus::TorusMachine& m, fw::ami::AmiTrace& trace);
  // While a log replays (AmiTraceLog): the simulated time of the event replayed, in the
  // kernel's units; nullopt: the kernel's time.
  void replaying_at(std::optional<uint64_t> at) { replay_at_ = at; }

  const std::map<std::tuple<int, int, uint32_t>, AmiMessageRecord>& messages() const {
    return msgs_;
  }
  uint64_t violations() const { return violations_; }
  uint64_t peak_temp() const { return peak_temp_; }

  // AmiTrace.
  void injected(int ep, uint64_t seq, int occupancy, int slots) override;
  void listed(int ep, uint64_t seq) override;
  void called(int ep, uint64_t seq, uint64_t tc) override;
  void pending(int ep, int count) override;
  void send_posted(int ep, int dest, uint32_t msg, uint32_t size, fw::ami::Protocol p) override;
  void eager_posted(int ep, int dest, uint32_t msg, uint32_t lo, uint32_t hi) override;
  void stop_processed(int ep, int dest, uint32_t msg, uint32_t eager) override;
  void put_posted(int ep, int dest, uint32_t msg, uint32_t lo, uint32_t hi) override;
  void ack_received(int ep, int dest, uint32_t msg) override;
  void send_done(int ep, int dest, uint32_t msg) override;
  void message_arrived(int ep, int src, uint32_t msg, uint32_t size, fw::ami::Protocol p) override;
  void committed(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi) override;
  void discarded(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi) override;
  void stop_sent(int ep, int src, uint32_t msg, fw::ami::StopCause c) override;
  void cts_received(int ep, int src, uint32_t msg, uint32_t eager) override;
  void rdma_target(int ep, int src, uint32_t msg, uint64_t buf, uint32_t size) override;
  void get_posted(int ep, int src, uint32_t msg, uint32_t lo, uint32_t hi,
                  fw::ami::GetKind k) override;
  void rdma_landed(int ep, uint64_t addr, uint32_t bytes) override;
  void temp_usage(int ep, uint64_t used, uint64_t capacity) override;
  void receive_done(int ep, int src, uint32_t msg) override;

 private:
  using Key = std::tuple<int, int, uint32_t>;  // sender, receiver, message
  struct Endpoint {
    std::set<uint64_t> listed;
    int pending = 0;
  };
  struct Target {
    uint64_t buf;
    uint32_t size;
    Key key;
  };
  double now_ns() const;
  AmiMessageRecord& rec(int src, int dest, uint32_t msg);
  void commit(AmiMessageRecord& r, const Key& k, uint32_t lo, uint32_t hi, bool rdma);

  std::map<int, Endpoint> eps_;
  std::map<Key, AmiMessageRecord> msgs_;
  std::map<Key, fw::ami::ByteRanges> committed_;
  std::map<Key, uint32_t> eager_end_;  // last eager byte posted + 1
  std::map<int, std::vector<Target>> targets_;
  uint64_t violations_ = 0, peak_temp_ = 0;
  std::optional<uint64_t> replay_at_;
};

// A parallel run (docs/parallel.md): the sender and the receiver may live in different
// partitions, so each partition logs its endpoints' trace events (and its nodes' RDMA
// landings), and at each window's end the reporting partition replays every partition's
// events of the window into the checker, in simulated-time order, each event at its own time,
// before the window's vote (partition_log.h says the order and why the checker then reaches
// the sequential run's verdicts and records): a violation stops the run at the end of the
// window in which it happened.
class AmiTraceLog {
 public:
  AmiTraceLog();
  ~AmiTraceLog();
  // Where this partition's endpoints (and its DMA engines' RDMA landings) report.
  fw::ami::AmiTrace& trace();

  // This partition's events since the last take (one window's).
  Bytes take() { return log_.take(); }
  // Replays every partition's events of one window (each partition's take(), in partition
  // order) into the checker.
  void replay(const std::vector<Bytes>& by_partition, AmiChecker& checker);
  size_t events() const { return log_.events(); }

 private:
  class Recorder;  // the trace port that logs each call (ami_checker.cpp)
  PartitionLog log_;
  std::unique_ptr<Recorder> recorder_;
};

}  // namespace hs::checkers
