// One PCIe link between a root complex (side A, the host) and an endpoint (side B, an
// accelerator). Each direction is an independent wire with its own transmit buffer, receiver
// credits and in-flight TLPs, so both directions carry traffic at once.
//
// Requests enter at a_in / b_in (from that side's interconnect) and leave at the far side's
// b_out / a_out. Writes become posted MWr TLPs split at max_payload and 4 KiB boundaries; the
// initiator continues once its last TLP is in the transmit buffer, and the data becomes
// visible on the far side when each TLP arrives. Reads become MRd requests (max_read_request,
// one tag each); the completer reads memory when a request arrives and answers with CplD
// TLPs split at the read completion boundary on the other direction; the initiator blocks
// until the last completion arrives. Posted and completion TLPs share each wire in FIFO
// order, so ordering rules (a read does not pass an earlier write) hold by construction.
//
// Flow control: a TLP starts on the wire only when the receiver's credits for its type
// (posted, non-posted, completion; header and data) allow. Each direction delivers through a
// DeliveryQueue: a TLP is handed to the far side's fabric when it arrives, the delay that
// fabric returns is honoured (the receiver has taken the TLP when it has passed), and only
// then does the receiver's UpdateFC return the TLP's credits, after fc_update and the wire's
// latency. A slow receiver therefore throttles its transmitter through its credits. A TLP
// whose credits depend on a return not yet scheduled waits, and every TLP behind it on that
// wire waits too (the wire stays FIFO); an initiator whose TLP waits is blocked, while the
// completer's completions queue without blocking its receiver (so no receiver ever waits for
// its own transmitter, and the two directions cannot deadlock).
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/pcie/pcie_config.h"
#include "tlm/link/credit_pool.h"
#include "tlm/payload/extensions.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/serial_resource.h"
#include "tlm/timing/token_pool.h"

namespace hs::pcie {

class PcieLink : public sc_core::sc_module {
 public:
  enum Side { A = 0, B = 1 };  // A: root complex (host), B: endpoint (accelerator)

  tlm_utils::simple_target_socket<PcieLink> a_in, b_in;
  tlm_utils::simple_initiator_socket<PcieLink> a_out, b_out;

  PcieLink(sc_core::sc_module_name name, int link_id);
  ~PcieLink() override;

  // Declares that the fabric behind `receiver` never waits while taking a TLP (memories,
  // registers, address decoders, links that refuse what a link delivered): its TLPs are then
  // taken in place at their arrival, without a thread switch (tlm/link/delivery_queue.h).
  // Before the simulation starts. Timing and order are the same either way.
  void receiver_never_waits(Side receiver);

  const PcieConfig& config() const { return cfg_; }
  int link_id() const { return link_id_; }

  // Per-direction totals, for tests and reports. dir 0 = A->B (downstream), 1 = B->A.
  uint64_t tlps(int dir, TlpKind k) const;
  uint64_t payload_bytes(int dir) const;
  uint64_t wire_bytes(int dir) const;  // TLPs and DLLPs, up to now
  uint64_t dllp_bytes(int dir) const;  // ACK, NAK and UpdateFC DLLPs this direction's wire carried

 private:
  struct ReadCtx;
  struct Tlp {
    TlpKind kind = TlpKind::MWr;
    uint64_t addr = 0;
    uint32_t len = 0;
    std::vector<uint8_t> data;  // MWr payload (copied: posted writes free the initiator)
    ReadCtx* ctx = nullptr;     // MRd / CplD: the waiting requester
    uint8_t* dst = nullptr;     // MRd: where the read data goes
    bool last_of_request = false;
  };
  struct Direction;
  struct Waiting;

  void from_a(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { transport(A, gp, delay); }
  void from_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { transport(B, gp, delay); }
  void transport(Side from, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void post_writes(Direction& d, tlm::tlm_generic_payload& gp, sc_core::sc_time& local);
  void issue_reads(Side from, Direction& d, tlm::tlm_generic_payload& gp, sc_core::sc_time& local);
  // Puts a TLP on direction d's wire no earlier than `ready`, in order behind any TLP waiting
  // for credits there. An initiator (through_tx_queue) holds a transmit-buffer slot until its
  // TLP has left, blocking until the TLP is on the wire; the completer never blocks.
  void send(Direction& d, Tlp&& tlp, const sc_core::sc_time& ready, bool through_tx_queue);
  // Starts the TLP on the wire if its credits are known to be available; returns when its
  // last byte leaves, or nullopt (the TLP is untouched) if it must wait for credits.
  std::optional<sc_core::sc_time> try_place(Direction& d, Tlp& tlp, const sc_core::sc_time& ready);
  // The transmit buffer's occupancy, in the statistics and on its counter track.
  void set_tx_depth(Direction& d, int depth, const sc_core::sc_time& now);
  // Places the TLPs waiting for credits on direction d, in order, as far as credits allow.
  void place_waiting(Direction& d);
  void arrive(Direction& d, Tlp& tlp);
  // The receiver of direction d took a TLP at `taken`: its credits fly back to the transmitter.
  void return_credits(Direction& d, CreditPool& credits, const sc_core::sc_time& taken);
  void complete_read(Direction& d, Tlp& mrd);
  Direction& other(Direction& d) { return &d == dir_[A].get() ? *dir_[B] : *dir_[A]; }

  // The data link layer. A DLLP occupies `wire` from `at` (after what is already booked
  // there); returns when it reaches the far end.
  sc_core::sc_time send_dllp(Direction& wire, const sc_core::sc_time& at, Counter& kind,
                             const char* name);
  // A DLLP that leaves at a later time `at`, known now (an UpdateFC): booked on its wire by
  // book_due_dllps() before anything else is booked there at or after `at`, so the wire sees
  // it exactly as if it were sent then. DLLPs due by `upto` are booked in time order.
  void schedule_dllp(Direction& wire, const sc_core::sc_time& at, Counter& kind, const char* name);
  void book_due_dllps(Direction& wire, const sc_core::sc_time& upto);
  void book_dllp(Direction& wire, const sc_core::sc_time& at, Counter& kind, const char* name);
  uint64_t due_dllp_bytes(int dir) const;
  // The receiver of direction d took a TLP whole: count it towards the next ACK.
  void acknowledge(Direction& d);
  // Sends the ACK for every unacknowledged TLP of direction d (count reached or timer).
  void send_ack(Direction& d);
  // A TLP whose copy ended at `end` on direction d was corrupted: books the NAK (or the
  // replay timer, if the NAK is lost), retraining, and the replayed copy; returns its start.
  sc_core::sc_time replay_after_error(Direction& d, const sc_core::sc_time& end,
                                      const sc_core::sc_time& ser);

  int link_id_;
  PcieConfig cfg_;
  double bytes_per_second_;
  std::vector<sc_core::sc_time> serialisation_;  // wire time of a TLP, by its size on the wire
  sc_core::sc_time latency_, fc_delay_;
  sc_core::sc_time dllp_time_, ack_timer_, replay_timeout_, retrain_;
  std::array<std::unique_ptr<Direction>, 2> dir_;    // indexed by the transmitting side
  std::array<std::unique_ptr<TokenPool>, 2> tags_;   // read tags of each requester side
  std::vector<std::vector<uint8_t>> spare_buffers_;  // payload buffers of delivered MWr TLPs
};

}  // namespace hs::pcie
