// MPI point-to-point over the DCMF-like messaging layer (sw/dcmf/messenger.h), one object per
// rank, on the rank's own core and DMA share: blocking and non-blocking tagged send and
// receive, wildcard source and tag (sw/mpi/matching.h), and the protocol chosen by size:
// eager up to eager_limit, the split transfer up to split_limit, rendezvous above (the
// target core copies nothing). The envelope travels in the layer's tag (sw/mpi/envelope.h).
#pragma once
#include <cstdint>
#include <map>
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
  uint32_t bytes = 0;
};

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
  Comm(Hal& hal, const MpiConfig& cfg, const hs::torus::TorusShape& shape, const RankMap& map,
       int rank, MpiTrace* trace);
  // Programs this rank's share of the DMA engine.
  void init();

  int rank() const { return rank_; }
  int size() const { return map_.size(); }
  Hal& hal() { return hal_; }
  const MpiConfig& config() const { return cfg_; }
  MpiTrace& trace() { return *trace_; }
  const RankCounts& counts() const { return counts_; }
  const RankMap& map() const { return map_; }
  // The messaging layer under this rank (the deposit broadcasts use its line deposits).
  dcmf::Messenger& messenger() { return messenger_; }
  // This rank's node-memory window (rank_memory).
  uint64_t window() const { return rank_memory(map_.place(rank_).t); }

  Request isend(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx = kPointToPoint);
  Request irecv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx = kPointToPoint);
  Status wait(Request& r);
  bool test(Request& r, Status* status = nullptr);
  void waitall(std::vector<Request>& rs);
  void send(uint64_t buf, uint32_t bytes, int dest, int tag, int ctx = kPointToPoint);
  Status recv(uint64_t buf, uint32_t bytes, int src, int tag, int ctx = kPointToPoint);
  Status sendrecv(uint64_t sbuf, uint32_t sbytes, int dest, uint64_t rbuf, uint32_t rbytes, int src,
                  int tag, int ctx = kPointToPoint);

 private:
  struct Pending {
    bool send = false;
    int handle = -1;  // the messaging layer's, once there is one
    uint64_t buf = 0;
    uint32_t capacity = 0;
    Envelope msg;  // receive: the message it matched
    bool matched = false;
  };
  void on_new_message(int src_endpoint, uint32_t word, uint32_t length);
  void bind(int id, const Envelope& e);
  dcmf::Protocol protocol_for(uint32_t bytes) const;
  Status finish(int id);

  Hal& hal_;
  MpiConfig cfg_;
  const RankMap& map_;
  int rank_;
  MpiTrace* trace_;
  MpiTrace no_trace_;
  dcmf::Messenger messenger_;
  Matcher matcher_;
  std::vector<uint32_t> next_seq_;  // per destination
  std::map<int, Pending> pending_;
  int next_id_ = 1;
  uint64_t sink_;  // where empty messages' placeholder byte lands
  RankCounts counts_;
};

}  // namespace hs::fw::mpi
