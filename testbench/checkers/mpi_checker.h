// The message-passing layer's checker: it listens on the layer's trace port and reads the
// ranks' buffers from node memory (a backdoor: no simulated time), and fails the run on any
// violation of (each rule a named check, mpi_rules below):
// - matching: every match names a message sent to that rank; no message is matched twice;
//   messages from one source with one tag (and context) match in the order sent; by the end
//   of the run every message sent has been matched and received;
// - collectives (on the world or a sub-communicator, the call naming its group): every rank
//   makes the same call (kind, root, sizes, and alltoallv's counts
//   pairwise consistent); no rank leaves a barrier before every rank entered it; every
//   result equals the reference the checker computes from the inputs it read at entry.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sw/mpi/trace.h"
#include "testbench/checkers/partition_log.h"
#include "tlm/parallel/bytes.h"

namespace hs::checkers {

namespace mpi_rules {
constexpr const char* kMatchedSent = "MPI matching: every match is of a message sent to that rank";
constexpr const char* kMatchedOnce = "MPI matching: no message is matched twice";
constexpr const char* kInOrder =
    "MPI matching: messages from one source with one tag match in the order sent";
constexpr const char* kAllReceived =
    "MPI matching: every message sent is matched and received by the end of the run";
constexpr const char* kSameCall =
    "MPI collectives: every rank makes the same call (kind, root, sizes)";
constexpr const char* kBarrier =
    "MPI collectives: no rank leaves a barrier before every rank entered it";
constexpr const char* kResult =
    "MPI collectives: every result equals the reference computed from the inputs";
}  // namespace mpi_rules

class MpiChecker : public fw::mpi::MpiTrace {
 public:
  // Reads `len` bytes at `addr` in rank `rank`'s node memory.
  using Peek = std::function<void(int rank, uint64_t addr, void* dst, size_t len)>;
  // Registers every rule, so a report lists them all even when a run never reaches one.
  MpiChecker(int ranks, Peek peek);

  void sent(int rank, int dest, int ctx, int tag, uint32_t seq, uint32_t bytes) override;
  void matched(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) override;
  void received(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) override;
  void collective_begin(int rank, const fw::mpi::CollectiveCall& call) override;
  void collective_end(int rank, const fw::mpi::CollectiveCall& call) override;
  // The end of the run: every message matched and received, every collective finished.
  void finish();

  uint64_t messages() const { return messages_; }
  uint64_t collectives_verified() const { return verified_; }
  // Reductions with a user's operator, whose reference the checker cannot compute.
  uint64_t collectives_unverified() const { return unverified_; }
  uint64_t result_bytes_verified() const { return result_bytes_; }

  // The bytes of its memory a rank's collective call shows the checker: its inputs as it
  // enters (at_end false) or its results as it leaves; `rank` is its rank in the call's group
  // of `p` ranks. len 0: none.
  struct Span {
    uint64_t addr = 0;
    size_t len = 0;
  };
  static Span reads(const fw::mpi::CollectiveCall& call, int rank, size_t p, bool at_end);

 private:
  struct Message {
    int ctx, tag;
    uint32_t seq, bytes;
    bool matched = false, received = false;
  };
  // One collective call of one communicator, by the communicator's ranks.
  struct Call {
    std::vector<int> world;                      // each rank's world rank
    std::vector<fw::mpi::CollectiveCall> calls;  // per rank (kind Barrier until it begins)
    std::vector<bool> begun, ended;
    std::vector<std::vector<uint8_t>> in, out;
    int begun_count = 0, ended_count = 0;
  };
  // (communicator id, its first world rank, call): disjoint communicators of one split share
  // an id.
  using CallKey = std::tuple<int, int, uint64_t>;
  CallKey key(const fw::mpi::CollectiveCall& call) const;
  std::deque<Message>& pair(int src, int dest);
  void verify(uint64_t index, Call& c);
  std::vector<uint8_t> read(int rank, Span s) const;

  int ranks_;
  Peek peek_;
  std::map<std::pair<int, int>, std::deque<Message>> pairs_;
  std::map<CallKey, Call> calls_;
  uint64_t messages_ = 0, verified_ = 0, unverified_ = 0, result_bytes_ = 0;
};

// A parallel run (docs/parallel.md): a partition's ranks hand their trace events to a log,
// each with the bytes the checker would read then (the rank's memory lives only in its own
// partition), and at each window's end the reporting partition replays every partition's
// events of the window into the checker, in the order of simulated time, before the window's
// vote (partition_log.h says the order and why it is the sequential run's verdicts and
// figures): a violation stops the run at the end of the window in which it happened.
class MpiTraceLog : public fw::mpi::MpiTrace {
 public:
  // The world's size; what rank `rank`'s memory holds at `addr` (read where the rank lives).
  MpiTraceLog(int ranks, MpiChecker::Peek peek);

  void sent(int rank, int dest, int ctx, int tag, uint32_t seq, uint32_t bytes) override;
  void matched(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) override;
  void received(int rank, int src, int ctx, int tag, uint32_t seq, uint32_t bytes) override;
  void collective_begin(int rank, const fw::mpi::CollectiveCall& call) override;
  void collective_end(int rank, const fw::mpi::CollectiveCall& call) override;

  // This partition's events since the last take (one window's).
  Bytes take() { return log_.take(); }
  // Replays every partition's events of one window (each partition's take(), in partition
  // order) into a checker whose Peek is replay_peek.
  void replay(const std::vector<Bytes>& by_partition, MpiChecker& checker);
  // The bytes the event being replayed recorded (the checker's Peek during replay).
  void replay_peek(void* dst, size_t len) const;
  size_t events() const { return log_.events(); }

 private:
  enum class Kind : uint8_t { Sent, Matched, Received, Begin, End };
  void message(Kind kind, int rank, int other, int ctx, int tag, uint32_t seq, uint32_t bytes);
  // A collective's entry or exit, with the bytes the checker reads there.
  void collective(Kind kind, int rank, const fw::mpi::CollectiveCall& call);

  int ranks_;
  MpiChecker::Peek peek_;
  PartitionLog log_;
  const std::vector<uint8_t>* replaying_ = nullptr;  // the bytes of the event being replayed
};

}  // namespace hs::checkers
