// A DCMF-like messaging layer on the torus DMA: point-to-point sends matched to posted
// receives by (source, tag), with three protocols:
// - eager: everything by memory FIFO; the target core copies every byte;
// - rendezvous: an RTS carries a direct-put descriptor; the target fills in where the data goes
//   and answers with a remote get that makes the origin's DMA put everything;
// - split: the origin DMA starts sending from the low end by memory FIFO while the
//   RTS is in flight; the acknowledgement's direct put sends from the high end; both streams
//   claim bytes from one send counter, so they meet without overlap.
// Completion is by counter hit-zero, taken by interrupt or by polling. An engine halted on a
// bus error (a corrupted descriptor, sw/hal/torus_dma.h check_halted) fails the firmware with
// what the engine's error registers say: found by the DMA's error interrupt, after a wait that
// timed out (the interrupt may have been lost), or, polling, after status_poll_cycles without
// progress. A split send keeps its
// counter until both its streams' descriptors have been through the engine (the target
// always answers a split RTS): a late stream must never claim from a counter already
// re-armed for the next message.
//
// Endpoints: a node runs one endpoint per rank (1, 2 or 4); endpoint e is local e % n of node
// e / n. Each owns its slice of the node's DMA engine (sw/dcmf/dma_share.h), so endpoints of
// one node never share a FIFO or a counter. The software header word carries the sender's
// local index (2 bits), the packet type (2 bits) and a 28-bit tag.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hw/torus/network/torus_shape.h"
#include "sw/dcmf/dma_share.h"
#include "sw/hal/torus_dma.h"

namespace hs::fw::dcmf {

enum class Protocol { Eager, Rendezvous, Split, Auto };
Protocol parse_protocol(const std::string& name);  // throws std::invalid_argument
const char* protocol_name(Protocol p);

struct MessengerConfig {
  uint32_t eager_limit = 1920;        // Auto: messages up to this size go eager (8 packets)
  Protocol large = Protocol::Split;   // Auto: protocol above the limit
  uint64_t post_cycles = 300;         // build descriptors and post a send
  uint64_t rts_cycles = 300;          // target: match an RTS, set up its counter, answer
  uint64_t entry_cycles = 200;        // per reception-FIFO entry: dispatch, parse, match
  uint32_t copy_bytes_per_cycle = 8;  // target core copying memory-FIFO payload
  bool interrupts = true;             // block on interrupts (false: poll)
  // Longest sleep on an interrupt before polling the DMA's FIFOs and counters anyway (a lost
  // interrupt, sw/hal/irq_wait.h): 10M cycles, 12 ms at 850 MHz, far above a message's
  // network time, so fault-free runs never time out while a peer is active.
  uint64_t irq_timeout_cycles = 10'000'000;
  uint64_t poll_cycles = 50;  // between polls
  // Polling: time without progress after which the engine's STATUS is read (a halted engine
  // stops the counters a poller watches); 0.6 ms, past any message's wait for its first byte.
  uint64_t status_poll_cycles = 500'000;
  int counters_per_group = 64;  // the DMA's counter bank shape
  int counter_groups = 4;
  int injection_fifos = 16;  // the DMA's FIFOs
  int reception_fifos = 4;
  int endpoints_per_node = 1;  // endpoints sharing the node's DMA engine
  int local = 0;               // this endpoint among them
};

// Node-memory regions the messaging layer owns (endpoint l's windows are l windows up).
namespace layout {
constexpr uint64_t kInjFifos = 0x0100'0000;  // 64 KiB per injection FIFO
constexpr uint64_t kInjFifoBytes = 0x1'0000;
constexpr uint64_t kInjFifoWindow = 0x4'0000;  // one endpoint's injection FIFOs
constexpr uint64_t kRecFifo = 0x0200'0000;
constexpr uint64_t kRecFifoBytes = 0x10'0000;  // 4096 entries
constexpr uint64_t kScratch = 0x0300'0000;     // RTS records and acknowledgement descriptors
constexpr uint64_t kScratchSlots = 1024;
constexpr uint64_t kScratchSlot = 64;
constexpr uint64_t kAppMemory = 0x1000'0000;  // applications' buffers from here
}  // namespace layout

// FIFO and counter assignments, relative to the endpoint's share (endpoint 0's are these).
constexpr int kDataFifo = 0;             // sends and RTS (normal priority)
constexpr int kHighFifo = 1;             // remote gets append direct-put descriptors here
constexpr int kControlFifo = 2;          // acknowledgements (high priority)
constexpr int kDepositFifo = 3;          // the first deposit lane's; the lanes' FIFOs follow it
constexpr uint32_t kControlCounter = 0;  // injection counter for RTS and acks (never reaches 0)
constexpr int kReceptionFifo = 0;
constexpr uint32_t kMaxTag = 0x0FFFFFFF;

// What a completed receive reports.
struct ReceiveInfo {
  uint32_t bytes = 0;
  uint32_t memory_fifo_bytes = 0;  // arrived by memory FIFO (copied by this core)
  uint32_t direct_put_bytes = 0;   // written by the DMA alone
};

class Messenger {
 public:
  // `node`: this endpoint's node (its local index is cfg.local).
  Messenger(Hal& hal, const MessengerConfig& cfg, const hs::torus::TorusShape& shape, int node);

  // Programs the FIFOs and counters this layer uses. Call once before anything else.
  void init();

  // Posts a send to endpoint `dest`; returns a handle for wait_send. The buffer must stay
  // untouched until then. With every send counter in flight it waits for one to free.
  int send(int dest, uint64_t buf, uint32_t bytes, Protocol protocol, uint32_t tag);
  void wait_send(int handle);
  // Posts a receive for (src endpoint, tag); returns a handle for wait_recv.
  int post_recv(int src, uint32_t tag, uint64_t buf, uint32_t bytes);
  ReceiveInfo wait_recv(int handle);
  // Non-blocking completion: true (and the handle is released) once done.
  bool test_send(int handle);
  bool test_recv(int handle, ReceiveInfo* info = nullptr);
  // Handles everything that has arrived; never blocks.
  void progress();
  // Blocks until something may have happened (an interrupt of this endpoint, or a poll interval).
  void idle();

  // Called once per message whose first packet (or RTS) finds no posted receive, before it is
  // kept aside: the layer above may post its receive from inside the call.
  using NewMessage = std::function<void(int src, uint32_t tag, uint32_t length)>;
  void on_new_message(NewMessage fn) { on_new_message_ = std::move(fn); }

  // Line deposits (the deposit broadcasts of sw/mpi). Every endpoint reserves one reception
  // counter for them, the same number on every node for a given local index, so one deposit
  // lands through that counter at every node of its line. A receiver arms it for its buffer
  // (before telling the sender it may start); the sender posts direct puts with the deposit
  // bit to an endpoint of the same local index on a line with this node, landing `offset` bytes
  // past the receivers' counter base (their buffer rounded down to 16 bytes: every buffer of
  // one deposit must have the same address modulo 16). Each of kDepositLanes lanes has an
  // injection FIFO of its own where the share has one (the data FIFO otherwise), so deposits
  // along several links leave side by side. The packets of one lane arrive in order, so what
  // has landed is always a prefix of the buffer.
  static constexpr int kDepositLanes = 6;
  void arm_deposit(uint64_t buf, uint32_t bytes);
  int send_deposit(int dest, uint64_t buf, uint32_t bytes, uint32_t offset, int lane);
  // Blocks (polling the counter) until the armed deposit's first `bytes` have landed.
  void wait_deposited(uint32_t bytes);
  // Blocks until the armed deposit has all landed, and disarms it.
  void wait_deposit();

  uint64_t bytes_copied() const { return bytes_copied_; }
  Protocol resolve(Protocol p, uint32_t bytes) const;
  int self() const { return self_; }
  const hs::torus::TorusShape& shape() const { return shape_; }
  int endpoints() const { return shape_.nodes() * cfg_.endpoints_per_node; }
  const DmaShare& share() const { return share_; }

 private:
  enum MsgType : uint32_t { kEager = 1, kRts = 2, kSplitData = 3 };
  struct RtsRecord {
    hs::torus::dma::Descriptor put;  // the direct put, completed by the target
    uint32_t size, tag, reply_fifo, protocol;
    uint8_t pad[16];
  };
  static_assert(sizeof(RtsRecord) == 64, "RTS records fill a scratch slot");
  struct Send {
    uint32_t counter;
    bool done = false;
    bool split = false;
    bool remote = false;      // answered by the target (rendezvous, split)
    bool zero = false;        // the counter reached zero
    bool answered = false;    // the acknowledgement's direct put has been through the engine
    uint64_t data_index = 0;  // its memory-FIFO stream's place among the data FIFO's descriptors
  };
  struct Recv {
    int src;
    uint32_t tag;
    uint64_t buf;
    uint32_t size;  // posted; the message's length once a packet or the RTS has told it
    bool sized = false;
    bool done = false;
    int counter = -1;            // reception counter once the RTS is handled
    uint32_t received_fifo = 0;  // bytes copied from memory-FIFO entries
  };
  struct Stashed {  // arrived before its receive was posted
    int src;
    uint32_t tag, type, offset, length;
    std::vector<uint8_t> data;
    RtsRecord rts;
  };

  uint32_t pack(uint32_t type, uint32_t tag) const {
    return static_cast<uint32_t>(cfg_.local) << 30 | type << 28 | (tag & kMaxTag);
  }
  hs::torus::dma::Descriptor base_descriptor(int dest) const;
  // A send's common start: checks `dest` and `bytes`, waits for an injection counter, sets it
  // to `bytes` and returns a descriptor to `dest` sending [buf, buf + bytes) through it.
  hs::torus::dma::Descriptor start_send(int dest, uint64_t buf, uint32_t bytes, int handle,
                                        const char* protocol, uint32_t tag);
  // Records the send posted under `handle` (its counter is the descriptor's).
  void track_send(int handle, uint32_t counter, Protocol p);
  uint64_t scratch_slot();
  uint32_t take_counter(std::vector<uint32_t>& pool, const char* what);
  void handle_entry(const hs::torus::dma::FifoEntryHeader& h, uint64_t payload);
  // `length`: the message's length, from the packet header (the sending descriptor's).
  void set_length(Recv& r, uint32_t length);
  void deliver_data(Recv& r, uint32_t type, uint32_t length, uint32_t offset, const uint8_t* data,
                    uint32_t n);
  void handle_rts(Recv& r, int src, const RtsRecord& rts);
  void check_counters();
  // Counter `c` of `bank` reached zero: the send or receive it serves has finished.
  void counter_hit(torus_dma::Bank bank, uint32_t c);
  // Split sends whose acknowledgement the engine has finished (descriptors the remote gets
  // appended to the high FIFO, behind its HEAD).
  void scan_acknowledgements();
  void send_finished(Send& s);
  // Answers RTSs kept waiting for a reception counter, as counters free.
  void retry_deferred();
  Recv* find_recv(int src, uint32_t tag);
  void block(uint32_t irq_mask);
  // One poll interval; after status_poll_cycles of them without progress, checks the engine.
  void poll_once();
  uint32_t irq_lines() const;

  Hal& hal_;
  MessengerConfig cfg_;
  hs::torus::TorusShape shape_;
  int node_;
  int self_;
  DmaShare share_;
  uint32_t control_counter_ = 0;
  NewMessage on_new_message_;
  std::set<std::pair<int, uint32_t>> announced_;  // (src, tag) told to on_new_message_
  torus_dma::FifoState data_fifo_, high_fifo_, control_fifo_, rec_fifo_;
  // The deposit lanes' FIFOs (end 0: not set up yet; they are set up on first use).
  std::array<torus_dma::FifoState, kDepositLanes> deposit_fifos_{};
  uint32_t deposit_counter_ = 0;  // the reception counter reserved for deposits
  uint32_t deposit_bytes_ = 0;    // what the armed deposit brings
  bool deposit_armed_ = false, deposit_arrived_ = false;
  std::vector<uint32_t> free_send_counters_, free_recv_counters_;
  std::map<int, Send> sends_;
  std::map<int, Recv> recvs_;
  std::deque<Stashed> stash_;
  struct Deferred {  // an RTS matched while every reception counter was in use
    Recv* recv;      // map nodes stay put; a receive is not done before its RTS is answered
    int src;
    RtsRecord rts;
  };
  std::deque<Deferred> deferred_;
  uint64_t next_scratch_ = 0;
  uint64_t ack_scan_ = 0;       // the next high-FIFO descriptor not yet scanned
  bool irq_timed_out_ = false;  // the last block() ended by its timeout
  uint64_t idle_cycles_ = 0;    // polled without progress since the engine was last checked
  uint64_t found_ = 0;          // FIFO entries and counter hits progress() has found
  int unanswered_splits_ = 0;
  int remote_sends_ = 0;        // rendezvous and split sends not yet finished
  uint64_t data_injected_ = 0;  // descriptors posted to the data FIFO
  int next_handle_ = 1;
  uint64_t bytes_copied_ = 0;
};

}  // namespace hs::fw::dcmf
