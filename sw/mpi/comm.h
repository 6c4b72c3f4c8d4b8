// MPI point-to-point over the DCMF-like messaging layer (sw/dcmf/messenger.h), one object per
// rank, on the rank's own core and DMA share: blocking and non-blocking tagged send and
// receive, wildcard source and tag (sw/mpi/matching.h), and the protocol chosen by size:
// eager up to eager_limit, the split transfer up to split_limit, rendezvous above (the
// target core copies nothing). The envelope travels in the layer's tag (sw/mpi/envelope.h).
//
// Communicators: the world (every rank, built by the constructor) and those made from it
// (Collectives::split and create, like MPI_Comm_split, MPI_Comm_dup and MPI_Comm_create). A
// sub-communicator owns no messaging state: its calls go through the world's with its ranks
// translated to world ranks. Each communicator holds a slot (0: the world), agreed by the
// ranks that make it as the lowest slot free on all of them, so a slot names one communicator
// for every pair of its ranks; its point-to-point messages travel in wire context 1 + slot,
// its collective ones in the collective context with the slot in their tag (envelope.h). So
// every communicator has the full tag range and wildcard receives, and never matches
// another's messages. At most kCommSlots communicators exist on a rank at once; a slot is
// free again when its communicator is destroyed.
//
// Truncation: with overflow buffers set (set_overflow_buffers), a point-to-point message
// longer than its receive is received whole into one and its first bytes copied into the
// receive buffer; its status says it was truncated (MPI_ERR_TRUNCATE). Without them a
// truncation fails the rank, as a collective's always does.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sw/dcmf/messenger.h"
#include "sw/mpi/matching.h"
#include "sw/mpi/rank_map.h"
#include "sw/mpi/trace.h"

namespace hs::fw::mpi {

// A rank's node-memory window (rank t of a node: t windows up): the application's buffers in
// the low half, the collectives' temporaries in the high half.
constexpr uint64_t kRankWindow = 0x1000'0000;
constexpr uint64_t kRankScratch = 0x0800'0000;
// The layer's own buffers (a split's exchange), at the top of the scratch window below its
// last page (where empty messages' placeholder byte lands); collectives' temporaries end below.
constexpr uint64_t kRankLayerArea = 256 << 10;
constexpr uint64_t kRankLayerBuffers = kRankWindow - 4096 - kRankLayerArea;

// The collective context's 15-bit tag: the communicator's slot (5 bits) and its collective
// call (10 bits).
constexpr int kCommSlots = kWireContexts - 1;
constexpr int collective_tag_of(int slot, uint64_t call) {
  return slot << 10 | static_cast<int>(call % 1024);
}
inline uint64_t rank_memory(int t) {
  return dcmf::layout::kAppMemory + static_cast<uint64_t>(t) * kRankWindow;
}

struct MpiConfig {
  dcmf::MessengerConfig messenger;      // endpoints_per_node and local are set per rank
  uint32_t eager_limit = 1920;          // largest eager message
  uint32_t split_limit = 65536;         // largest split transfer; rendezvous above
  uint64_t match_cycles = 60;           // one matching step (a queue search, a request's set-up)
  double reduce_cycles_per_byte = 0.5;  // collectives' arithmetic
  uint32_t pipeline_bytes = 16384;      // ring and deposit broadcast segment
};

struct Status {
  int source = -1, tag = -1;
  uint32_t bytes = 0;          // received (the receive's capacity when truncated)
  bool truncated = false;      // the message was longer than the receive
  uint32_t message_bytes = 0;  // the message's length
};

// How a send completes: standard (eager ones when injected), or synchronous (not before the
// receiver has matched it: always by rendezvous).
enum class SendMode { Standard, Synchronous };

struct Request {
  int id = -1;
};

// What a rank did, for reports.
struct RankCounts {
  uint64_t messages_sent = 0, bytes_sent = 0, messages_received = 0, bytes_received = 0;
  uint64_t unexpected = 0;  // messages that arrived before their receive
};

class Comm {
 public:
  // The world communicator.
  Comm(Hal& hal, const MpiConfig& cfg, const hs::torus::TorusShape& shape, const RankMap& map,
       int rank, MpiTrace* trace);
  // Neither copied nor moved: sub-communicators and the messaging layer's callback hold its
  // address (Collectives::split returns a new one in place).
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  ~Comm();
  // Programs this rank's share of the DMA engine (the world's; sub-communicators have none).
  void init();

  int rank() const { return rank_; }
  int size() const { return group_.empty() ? map_.size() : static_cast<int>(group_.size()); }
  // The communicator's slot: 0 for the world.
  int id() const { return id_; }
  // Slots free on this rank (bit s: slot s), for the agreement on a new communicator's.
  uint32_t free_slots() const { return ~world_->used_slots_ & ((1u << kCommSlots) - 1); }
  // The world ranks of this communicator's ranks, in its rank order (empty for the world).
  const std::vector<int>& group() const { return group_; }
  int world_rank(int r) const { return group_.empty() ? r : group_[static_cast<size_t>(r)]; }
  const RankMap& map() const { return map_; }
  Hal& hal() { return hal_; }
  const MpiConfig& config() const { return cfg_; }
  MpiTrace& trace() { return *trace_; }
  // Messages this rank sent and received on this communicator.
  const RankCounts& counts() const { return counts_; }
  // The messaging layer under this rank, the world's (the deposit broadcasts use its line
  // deposits).
  dcmf::Messenger& messenger() { return *world_->messenger_; }
  // This rank's node-memory window (rank_memory).
  uint64_t window() const { return rank_memory(map_.place(world_rank(rank_)).t); }
  // The tag of this communicator's collective call `call` (in the collective context).
  int collective_tag(uint64_t call) const { return collective_tag_of(id_, call); }
  // Numbers this communicator's collective calls (the same on every rank).
  uint64_t next_collective_call() { return collective_calls_++; }
  uint64_t collective_calls() const { return collective_calls_; }

  Request isend(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx = kPointToPoint,
                SendMode mode = SendMode::Standard);
  Request irecv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx = kPointToPoint);
  Status wait(Request& r);
  bool test(Request& r, Status* status = nullptr);
  void waitall(std::vector<Request>& rs);
  // The oldest message a receive for (src, tag) would take, if one has arrived (MPI_Iprobe);
  // handles what has arrived first. Costs a matching step.
  bool iprobe(int src, int tag, Status& status);
  // Handles everything that has arrived, never blocking; and blocks until something may have
  // happened (for loops that wait on several requests at once).
  void progress();
  void idle();
  // Requests not yet completed on this communicator's rank (the world's: all of them).
  size_t outstanding() const { return world_->pending_.size(); }

  // Where truncated messages are received whole (above): `take` returns a buffer of `bytes`
  // in node memory, `give` takes it back once its message is copied.
  void set_overflow_buffers(std::function<uint64_t(uint32_t bytes)> take,
                            std::function<void(uint64_t addr)> give) {
    world_->overflow_take_ = std::move(take);
    world_->overflow_give_ = std::move(give);
  }
  void send(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx = kPointToPoint);
  Status recv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx = kPointToPoint);
  Status sendrecv(uint64_t sbuf, uint32_t sbytes, int dest, uint64_t rbuf, uint32_t rbytes, int src,
                  int tag, int ctx = kPointToPoint);

 private:
  friend class Collectives;  // splits
  // A sub-communicator of `parent` over `group` (parent ranks), this rank being `rank` in it,
  // in slot `slot` (free on this rank).
  Comm(Comm& parent, const std::vector<int>& group, int rank, int slot);
  // A sub-communicator's call in the world's terms.
  int to_world(int r) const;
  int wire_context(int ctx) const { return ctx == kCollective ? kCollectiveWire : 1 + id_; }
  Status from_world(Status s) const;
  Status counted(Status s);  // a sub-communicator's receive, counted

  // The world's: a send or receive by world rank and wire context.
  Request post_send(uint64_t buf, uint32_t bytes, int dest, int tag, int wire, SendMode mode);
  Request post_recv(uint64_t buf, uint32_t bytes, int src, int tag, int wire);

  struct Pending {
    bool send = false;
    int handle = -1;  // the messaging layer's, once there is one
    uint64_t buf = 0;
    uint32_t capacity = 0;
    Envelope msg;  // receive: the message it matched
    bool matched = false;
    uint64_t overflow = 0;  // a truncated message's whole landing place
  };
  void on_new_message(int src_endpoint, uint32_t word, uint32_t length);
  void bind(int id, const Envelope& e);
  dcmf::Protocol protocol_for(uint32_t bytes) const;
  Status finish(int id);
  // A request's key among this core's protocol steps: unique per communicator and request.
  uint64_t trace_key(int id) const {
    return kTraceKeyMpi | trace_comm_ << 32 | static_cast<uint32_t>(id);
  }

  Hal& hal_;
  MpiConfig cfg_;
  const RankMap& map_;
  int rank_;
  MpiTrace* trace_;
  MpiTrace no_trace_;
  Comm* world_;             // this, for the world
  std::vector<int> group_;  // world ranks (empty for the world)
  int id_ = 0;
  uint32_t used_slots_ = 1;  // the world's: slots of this rank's communicators (bit 0: itself)
  uint64_t collective_calls_ = 0;
  std::unique_ptr<dcmf::Messenger> messenger_;  // the world's
  Matcher matcher_;
  std::unordered_map<int, uint32_t> next_seq_;  // per destination sent to so far
  std::map<int, Pending> pending_;
  int next_id_ = 1;
  uint64_t trace_comm_ = next_trace_comm();  // this communicator's number, for trace keys
  static uint64_t next_trace_comm() {
    static uint64_t n = 0;
    return ++n & 0xffffff;
  }
  uint64_t sink_;  // where empty messages' placeholder byte lands
  RankCounts counts_;
  std::function<uint64_t(uint32_t)> overflow_take_;  // the world's
  std::function<void(uint64_t)> overflow_give_;
};

}  // namespace hs::fw::mpi
