// A split-transaction link between two sides, A and B (PCIe, HyperTransport): the wires,
// their flow control and their data link layer, carrying packets (tlm/link/packet.h). What the
// packets mean is left to the two ends: a transaction port (tlm/link/transaction_port.h) that
// turns bus accesses into packets and back, or a bridge that forwards them onto another link.
// A protocol brings its wire format (LinkFormat: framing, splitting) and its timing and flow
// control figures (LinkTiming); pcie::PcieLink and ht::HtLink are this link with theirs.
//
// Rules:
// - Each direction is an independent wire, with its own transmit buffer, receiver credits and
//   packets in flight, so both directions carry traffic at once. Packets leave a wire in the
//   order they were sent (writes and completions share it FIFO, so a read's completions never
//   pass an earlier write, and a read never passes a write sent before it).
// - A packet starts on the wire only when the receiver's credits for its class (posted,
//   non-posted, completion; headers and data) allow. Each direction delivers through a
//   DeliveryQueue: a packet is handed to the far side's receiver when it arrives (its last
//   byte; its header for a receiver that forwards cut-through), the delay the receiver returns
//   is honoured (it has taken the packet when that has passed), and only then do its credits
//   fly back, after the flow-control update delay, on the other wire (a credit update packet
//   that takes wire time there: PCIe's UpdateFC DLLP, HyperTransport's NOP). A slow receiver
//   thus throttles its transmitter through its credits.
// - A packet whose credits depend on a return not yet scheduled waits, and every packet behind
//   it on that wire waits too. A sender with a thread (send) holds a transmit-buffer slot and
//   blocks until its packet is on the wire; packets posted without a thread (post: a
//   completer's completions) queue without blocking anyone, so no receiver ever waits for its
//   own transmitter and the two directions cannot deadlock.
// - An acknowledged data link layer (PCIe) keeps each packet in a replay buffer until an ACK
//   returns, and replays after a NAK or the replay timer (LCRC-error faults); a link without one
//   (HyperTransport 1 and 2) has no replay and no such faults.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "tlm/link/credit_pool.h"
#include "tlm/link/packet.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/serial_resource.h"

namespace hs::link {

class TransactionPort;

// What one protocol calls its packets, in traces and statistics.
struct LinkVocabulary {
  struct StatName {
    const char* name;
    const char* unit;
    const char* description;
  };
  const char* protocol;                           // "PCIe", "HyperTransport"
  std::array<const char*, kPacketKinds> kinds;    // traced span names, by PacketKind ("MWr")
  std::array<StatName, kPacketKinds> kind_stats;  // packets of each kind sent ("tlps_mwr")
  StatName flow_update_stat;                      // credit updates sent
  StatName link_bytes_stat;                       // bytes of the link's own packets
  const char* flow_update_name;                   // traced instants ("UpdateFC", "NOP")
  const char* credit_unit;                        // of data credits in traces ("16B")
};

// How one protocol frames and splits its packets, and what it calls them.
class LinkFormat {
 public:
  using StatName = LinkVocabulary::StatName;
  explicit LinkFormat(const LinkVocabulary& words) : words_(words) {}
  virtual ~LinkFormat() = default;
  // Bytes `p` occupies on the wire: payload, header, framing and CRC.
  virtual uint32_t wire_bytes(const Packet& p) const = 0;
  // The largest packet's wire bytes (writes and completions at their largest).
  virtual uint32_t max_wire_bytes() const = 0;
  // Bytes at the start of `p` a cut-through receiver needs before it forwards (its header).
  virtual uint32_t header_bytes(const Packet& p) const = 0;
  // Data credits `p` takes at the receiver, in the unit the protocol counts.
  virtual uint32_t data_credits(const Packet& p) const = 0;
  // A requester's largest write / read request at `addr` with `remaining` bytes to go.
  virtual uint32_t write_chunk(uint64_t addr, uint64_t remaining) const = 0;
  virtual uint32_t read_chunk(uint64_t addr, uint64_t remaining) const = 0;
  // A completer's completion payload sizes for a read of `len` bytes at `addr`.
  virtual void completion_sizes(uint64_t addr, uint32_t len, std::vector<uint32_t>& out) const = 0;

  const char* protocol() const { return words_.protocol; }
  const char* kind_name(PacketKind k) const { return words_.kinds[static_cast<size_t>(k)]; }
  StatName kind_stat(PacketKind k) const { return words_.kind_stats[static_cast<size_t>(k)]; }
  StatName flow_update_stat() const { return words_.flow_update_stat; }
  StatName link_bytes_stat() const { return words_.link_bytes_stat; }
  const char* flow_update_name() const { return words_.flow_update_name; }
  const char* credit_unit() const { return words_.credit_unit; }

 private:
  const LinkVocabulary& words_;  // static: outlives every format
};

// Timing and flow control, whatever the protocol.
struct LinkTiming {
  double bytes_per_second = 0;     // line rate after encoding and periodic CRC, one direction
  double latency_ns = 0;           // one way, after a packet's last byte leaves
  double flow_update_ns = 0;       // receiver's delay before it returns credits
  uint32_t link_packet_bytes = 0;  // a link packet on the wire: credit update, ACK, NAK
  uint32_t tx_queue = 4;           // packets a transmitter buffers before its sender waits
  uint32_t tags = 32;              // outstanding read requests per requester
  // Receiver credits by class (posted, non-posted, completion): headers count packets, data
  // the format's unit; 0 = infinite.
  std::array<uint32_t, 3> header_credits{}, data_credits{};
  // Acknowledged data link layer (PCIe) or none (HyperTransport 1/2).
  bool acknowledged = false;
  uint32_t ack_coalesce = 4;
  double ack_timer_ns = 200;
  uint32_t replay_buffer = 0;    // bytes (0: none)
  double replay_timeout_ns = 0;  // replay when no ACK or NAK came back in this time
  double retrain_ns = 0;         // link retraining after the fourth replay of one packet
  // Joins the processors of one host (coherent HyperTransport between sockets): what it
  // delivers comes from the host itself, not from a device.
  bool coherent = false;
};

// What a link delivers into: a transaction port, or a bridge.
class PacketReceiver {
 public:
  virtual ~PacketReceiver() = default;
  // `p` has arrived (p.head / p.tail say when its bytes did). Returns how long after now the
  // receiver has taken it; its credits fly back from then. May wait first (on a thread), unless
  // the link was told the receiver never waits: the wire's later packets then wait too, as
  // behind a busy receive port. The receiver may keep the packet's payload (move it out).
  virtual sc_core::sc_time take(Packet& p) = 0;
};

class SplitLink : public sc_core::sc_module {
 public:
  enum Side { A = 0, B = 1 };
  // What sits at a side: a fabric (the link builds a transaction port there, port(side)), or
  // something that handles packets itself (a bridge: connect() a receiver).
  enum class Attach { Fabric, Packets };

  ~SplitLink() override;

  // The transaction port at a side built with Attach::Fabric.
  TransactionPort& port(Side s);
  // Binds the receiver of what arrives at side `s` (Attach::Packets sides, before the run).
  void connect(Side s, PacketReceiver& receiver);

  // Sends `p` out of side `from`, no earlier than `local`: the calling thread waits for a
  // transmit-buffer slot, then until the packet's credits are known; `local` becomes the time
  // the sender may go on (its packet holds a slot in the transmit buffer until it has left).
  void send(Side from, Packet&& p, sc_core::sc_time& local);
  // Sends `p` out of side `from` no earlier than `ready`, behind every packet waiting there,
  // without waiting (completions).
  void post(Side from, Packet&& p, const sc_core::sc_time& ready);

  // The receiver at `receiver` never waits while taking a packet: packets are taken in place at
  // their arrival, without a thread switch (tlm/link/delivery_queue.h). Before the run.
  void receiver_never_waits(Side receiver);
  // The receiver at `receiver` forwards cut-through: each packet is delivered when its header
  // has arrived rather than its last byte. Before the run.
  void deliver_at_header(Side receiver);

  const LinkFormat& format() const { return *format_; }
  const LinkTiming& timing() const { return timing_; }
  int link_id() const { return link_id_; }
  // Wire time of `p` (its wire bytes at the line rate).
  sc_core::sc_time serialisation(const Packet& p) const;
  const sc_core::sc_time& latency() const { return latency_; }
  // A payload buffer from packets already delivered, for a sender's next packet.
  std::vector<uint8_t> spare_buffer();
  void recycle(std::vector<uint8_t>&& buffer);

  // Per-direction totals, for tests and reports. dir 0 = A->B, 1 = B->A.
  uint64_t packets(int dir, PacketKind k) const;
  uint64_t payload_bytes(int dir) const;
  uint64_t wire_bytes(int dir) const;         // packets and data-link packets, up to now
  uint64_t link_packet_bytes(int dir) const;  // credit updates, ACKs and NAKs this wire carried
  const std::string& direction_name(int dir) const;

 protected:
  // A protocol's link declares its parameters under its name, then builds the link with its
  // format and timing (in its constructor, so the ports are its children).
  SplitLink(sc_core::sc_module_name name, int link_id);
  void build(std::unique_ptr<LinkFormat> format, const LinkTiming& timing, Attach a, Attach b);

 private:
  struct Direction;
  struct Waiting;

  // Puts a packet on direction d's wire no earlier than `ready`, in order behind any packet
  // waiting for credits there. A sender with a thread (through_tx_queue) holds a transmit
  // slot until its packet has left, blocking until it is on the wire.
  void enqueue(Direction& d, Packet&& p, const sc_core::sc_time& ready, bool through_tx_queue);
  // Starts the packet on the wire if its credits are known to be available; returns when its
  // last byte leaves, or nullopt (the packet is untouched) if it must wait for credits.
  std::optional<sc_core::sc_time> try_place(Direction& d, Packet& p, const sc_core::sc_time& ready);
  void set_tx_depth(Direction& d, int depth, const sc_core::sc_time& now);
  void place_waiting(Direction& d);
  void arrive(Direction& d, Packet& p);
  CreditPool& credits_for(Direction& d, const Packet& p);
  // The receiver of direction d took a packet at `taken`: its credits fly back.
  void return_credits(Direction& d, CreditPool& credits, const sc_core::sc_time& taken);
  Direction& other(Direction& d) { return &d == dir_[A].get() ? *dir_[B] : *dir_[A]; }

  // The data link layer's own packets. One occupies `wire` from `at` (after what is booked
  // there); returns when it reaches the far end.
  sc_core::sc_time send_link_packet(Direction& wire, const sc_core::sc_time& at, Counter& kind,
                                    const char* name);
  // A link packet that leaves at a later time `at`, known now (a credit update): booked on its
  // wire before anything else is booked there at or after `at`, so the wire sees it exactly
  // as if it were sent then. Those due by `upto` are booked in time order.
  void schedule_link_packet(Direction& wire, const sc_core::sc_time& at, Counter& kind,
                            const char* name);
  void book_due_link_packets(Direction& wire, const sc_core::sc_time& upto);
  void book_link_packet(Direction& wire, const sc_core::sc_time& at, Counter& kind,
                        const char* name);
  uint64_t due_link_packet_bytes(int dir) const;
  // Acknowledged links: the receiver took a packet whole (counts towards the next ACK); the
  // ACK for every unacknowledged packet; a corrupted copy's NAK or timeout, retraining and
  // replay (returns the replayed copy's start).
  void acknowledge(Direction& d);
  void send_ack(Direction& d);
  sc_core::sc_time replay_after_error(Direction& d, const sc_core::sc_time& end,
                                      const sc_core::sc_time& ser);

  int link_id_;
  std::unique_ptr<LinkFormat> format_;
  LinkTiming timing_;
  std::vector<sc_core::sc_time> serialisation_;  // wire time by wire bytes
  sc_core::sc_time latency_, fc_delay_;
  sc_core::sc_time link_packet_time_, ack_timer_, replay_timeout_, retrain_;
  std::array<std::unique_ptr<Direction>, 2> dir_;  // indexed by the transmitting side
  std::array<PacketReceiver*, 2> receiver_{};      // at each side
  std::array<std::unique_ptr<TransactionPort>, 2> ports_;
  std::vector<std::vector<uint8_t>> spare_buffers_;
};

}  // namespace hs::link
