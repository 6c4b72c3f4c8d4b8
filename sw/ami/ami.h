// The active messaging interface (PAMI-like) with the eager SEND that the receiver can STOP.
//
// Endpoints post SEND, RECEIVE, PUT and GET without blocking; the AMI keeps them in an
// instruction queue and, as advance() runs, turns them into descriptors in slot i of the
// adapter's N-slot injection FIFO, listing each descriptor's done callback in slot i of a
// pending-callback list. The adapter finishes descriptors in order and counts them on its
// transfer counter; advance() calls the callbacks the counter shows complete.
//
// Every SEND starts eager: a header packet carrying the send buffer's address and size (and
// the first bytes), then eager packets of equal or growing sizes. The receiver decides from
// data-flow state alone (StopConditions) whether to STOP the sender, and then finishes the
// message by RDMA once conditions allow:
//   A: eager packets after the STOP are discarded; the receiver GETs every byte it lacks.
//   B: the receiver keeps the top eager packets and GETs from the bottom right after the
//      STOP; the sender answers with CTS(E); the receiver GETs [E, bottom). Both streams
//      claim from the sender's counter, so they never move a byte twice.
//   C: the receiver keeps the top eager packets; its STOP names the receive buffer and a
//      completion counter; the sender PUTs [E, size) there.
// The receiver learns completion when its completion counter (bytes it still lacked when
// RDMA began, less eager bytes it stores later) reaches zero; it then ACKs, and the SEND's
// done callback fires once the ACK is in and the sender's descriptors are complete.
// Baselines on the same machinery: Eager (a fixed eager limit, credits for the receiver's
// temporary space, rendezvous above the limit) and Rendezvous (header only; the receiver
// GETs everything once a RECEIVE matches).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "sw/ami/adapter.h"
#include "sw/ami/byte_ranges.h"
#include "sw/ami/trace.h"
#include "sw/ami/utilisation.h"
#include "sw/ami/wire.h"
#include "sw/hal/hal.h"

namespace hs::fw::ami {

// Data-flow conditions that make a receiver STOP a message. Levels above 1 are off.
struct StopConditions {
  bool on_unexpected = false;  // STOP any message that finds no RECEIVE
  bool on_temp_space = true;   // STOP an unexpected message the temporary space cannot hold
  double adapter_fill = 0.75;  // adapter receive buffer fill
  double link_utilisation = 2;
  double processor_utilisation = 0.9;  // share of the core not idle (application and AMI)
  uint64_t window_cycles = 20000;      // utilisation averaging window, core cycles
};

struct AmiConfig {
  Protocol protocol = Protocol::StopB;
  EagerSchedule eager;
  StopConditions stop;
  uint32_t temp_bytes = 64 << 10;  // AMI receive buffer (temporary space)
  uint64_t memory = 0x2000'0000;   // scratch records, then the temporary space
  // B: bottom GETs cover this share of what the top had not delivered at the STOP, from the
  // end down, in GETs of `bottom_first` bytes growing by `bottom_growth`.
  double bottom_share = 0.5;
  uint32_t bottom_first = 4096, bottom_growth = 2;
  // Eager baseline.
  uint32_t eager_limit = 4096;
  uint32_t credit_entries = 0;  // per peer; 0: the temporary space's blocks
  // Core cycles.
  uint64_t post_cycles = 100;   // posting an instruction
  uint64_t entry_cycles = 200;  // dispatching a received packet
  uint64_t idle_cycles = 50;    // between advance() passes while waiting
  uint32_t copy_bytes_per_cycle = 8;
};

struct RecvInfo {
  int src = 0;
  uint32_t tag = 0, bytes = 0;
  uint32_t eager_bytes = 0;   // kept from eager packets
  uint32_t staged_bytes = 0;  // of those, held in temporary space first
  uint32_t rdma_bytes = 0;    // moved by GET or PUT
  StopCause stop = StopCause::None;
};

struct AmiStats {
  uint64_t sends = 0, receives = 0, descriptors = 0, callbacks = 0;
  uint64_t eager_bytes_posted = 0, eager_bytes_kept = 0, eager_bytes_discarded = 0;
  uint64_t staged_bytes = 0;  // copied into temporary space and out again
  uint64_t rdma_bytes = 0;    // bytes RDMA was asked to move for messages
  uint64_t temp_peak = 0;     // bytes of temporary space in use, highest
  uint64_t acks = 0, ctss = 0, credit_waits = 0;
  std::array<uint64_t, kStopCauses> stops{};
  uint64_t stops_total() const;
};

using Callback = std::function<void()>;
using RecvCallback = std::function<void(const RecvInfo&)>;
using DispatchCallback = std::function<void(int src, uint32_t tag, uint32_t bytes)>;

class Ami {
 public:
  Ami(Hal& hal, Adapter& adapter, const AmiConfig& cfg, int self, AmiTrace* trace = nullptr);
  void init();

  // Non-blocking posts: each returns before any payload moves.
  void send(int dest, uint64_t buf, uint32_t bytes, uint32_t tag, Callback done);
  void receive(int src, uint32_t tag, uint64_t buf, uint32_t bytes, RecvCallback done);
  // One-sided: GET `bytes` at `remote` on `peer` into `local` (done when they have landed);
  // PUT `bytes` from `local` into a window `peer` exposed (done when they have left).
  void get(int peer, uint64_t remote, uint64_t local, uint32_t bytes, Callback done);
  int expose(uint64_t base, uint32_t bytes);
  void put(int peer, uint64_t local, uint32_t bytes, int window, uint32_t offset, Callback done);
  // Called when a SEND header arrives (before any RECEIVE is matched to it).
  void set_dispatch(DispatchCallback d) { dispatch_ = std::move(d); }

  // One pass: moves data, handles arrivals, matches receives, calls completed callbacks,
  // fills free FIFO slots.
  void advance();
  // Spends idle_cycles with nothing to do: the time processor utilisation does not count.
  void idle() {
    hal_.compute(cfg_.idle_cycles);
    idle_cycles_ += cfg_.idle_cycles;
  }
  // Advances until `done()` holds, idling between passes.
  template <class Pred>
  void wait_until(Pred done) {
    for (;;) {
      advance();
      if (done()) return;
      idle();
    }
  }

  const AmiStats& stats() const { return stats_; }
  int pending_callbacks() const { return pending_count_; }
  // Nothing queued, nothing in the FIFO, no SEND unfinished.
  bool quiescent() const { return queue_.empty() && injected_ == completed_ && out_.empty(); }
  uint64_t temp_in_use() const { return uint64_t(temp_used_) * block_; }
  const AmiConfig& config() const { return cfg_; }

 private:
  struct Instruction {
    Transfer t;
    Callback done;  // may be empty: listed only when set
  };
  struct Outbound {
    int dest = 0;
    uint32_t msg = 0, tag = 0, size = 0;
    uint64_t buf = 0;
    Protocol protocol = Protocol::StopB;
    int counter = -1;          // the send buffer's byte counter
    bool head_posted = false;  // header packet injected
    uint32_t posted = 0;       // eager bytes injected (E once stopped)
    uint32_t k = 0;            // next eager packet
    bool stopped = false, put_posted = false, acked = false, done_called = false;
    int in_fifo = 0;  // this message's descriptors not yet complete
    Callback done;
  };
  struct TempBlock {
    uint32_t offset, bytes;
    int block;
  };
  struct PostedRecv {
    int src;
    uint32_t tag;
    uint64_t buf;
    uint32_t bytes;
    RecvCallback done;
  };
  struct Inbound {
    int src = 0;
    uint32_t msg = 0;
    SendHeader h;
    std::optional<PostedRecv> recv;
    ByteRanges held, discarded;
    std::vector<TempBlock> temp;
    bool stopped = false, stop_sent = false, buffer_named = false, rdma = false;
    StopCause cause = StopCause::None;
    int rx_counter = -1;
    bool cts = false;
    uint32_t eager_end = 0;  // E from the CTS
    uint32_t bottom_lo = 0;  // lowest byte the bottom GETs asked for (size: none)
    bool final_posted = false;
    bool finished = false;
    uint32_t top_seen = 0;  // highest eager byte seen + 1 (kept or discarded)
    RecvInfo info;
  };
  using Key = std::pair<int, uint32_t>;

  // ami.cpp: FIFO, callbacks, the instruction queue, the pass.
  void push(const Transfer& t, Callback done = nullptr);
  void inject_now(Instruction ins);
  void pump();
  void collect_completions();
  uint64_t scratch(uint32_t bytes);
  Transfer control(int peer, uint32_t type, uint32_t msg, const ControlRecord& r);
  void queue_get(Inbound& in, uint32_t lo, uint32_t hi, GetKind kind, bool claim, bool descending);
  void copy(uint64_t dst, uint64_t src, uint32_t n);
  // ami_send.cpp: the sender's half.
  uint32_t head_data(Protocol p, uint32_t size) const;  // message bytes in the header packet
  bool post_next(Outbound& o);
  Callback track(Outbound& o);  // counts a descriptor of o until it completes
  void on_stop(int src, uint32_t msg, const ControlRecord& r);
  void on_ack(int src, uint32_t msg);
  void check_sends();
  // ami_receive.cpp: the receiver's half.
  void handle(const Arrival& a);
  void on_head(int src, uint32_t msg, const SendHeader& h);
  void on_data(Inbound& in, uint32_t offset, uint64_t addr, uint32_t n);
  void on_cts(int src, uint32_t msg, uint32_t eager_end);
  void match_receives();
  void bind(Inbound& in, PostedRecv r);
  void evaluate_stop(Inbound& in);
  StopCause stop_condition(const Inbound& in);
  void stop(Inbound& in, StopCause cause);
  bool rdma_allowed(const Inbound& in);
  void start_rdma(Inbound& in);
  void post_final_get(Inbound& in);
  void name_buffer(Inbound& in);
  void unstage(Inbound& in);
  void check_receives();
  void maybe_complete_eager(Inbound& in);
  void complete(Inbound& in);
  double link_utilisation();
  uint64_t temp_addr(int block) const;
  int take_block();
  void free_block(int b);

  Hal& hal_;
  Adapter& adapter_;
  AmiConfig cfg_;
  int self_;
  AmiTrace* trace_;
  AmiTrace no_trace_;
  DispatchCallback dispatch_;

  // Injection FIFO bookkeeping.
  int slots_ = 0;
  uint64_t injected_ = 0, completed_ = 0;
  std::vector<Callback> pending_;  // slot i: the callback of descriptor injected_ % N == i
  int pending_count_ = 0;
  std::deque<Instruction> queue_;  // posted, waiting for a slot
  uint64_t next_scratch_ = 0;

  // Sender.
  std::map<uint32_t, Outbound> out_;
  uint32_t next_msg_ = 1;
  std::map<int, uint32_t> credits_;  // Eager baseline: entries this side may still use

  // Receiver.
  std::map<Key, Inbound> in_;
  std::deque<Key> unexpected_;  // arrival order
  std::deque<PostedRecv> posted_;
  std::set<Key> retired_;
  std::vector<int> free_blocks_;
  uint32_t block_ = 0;
  int temp_used_ = 0;
  std::map<int, uint32_t> owed_credits_;

  // Data-flow meters.
  WindowRate busy_share_, link_rate_;
  uint64_t idle_cycles_ = 0, start_cycles_ = 0;

  struct UserGet {
    int counter;
    Callback done;
  };
  std::vector<UserGet> user_gets_;  // requests out, bytes still landing
  std::vector<uint8_t> buf_;
  AmiStats stats_;
};

}  // namespace hs::fw::ami
