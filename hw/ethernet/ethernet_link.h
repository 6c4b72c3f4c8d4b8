// An Ethernet link between host and accelerator, the second fabric type. It carries remote
// writes only (a message fabric, no load/store reads): each write is split into frames of at
// most `mtu` payload bytes, each carrying a remote-write header, padded to the 46-byte minimum
// and framed with preamble, MAC header, FCS and inter-frame gap. Both directions are
// independent wires.
//
// Flow control: the receiving NIC holds at most `rx_buffer` frames between their arrival and
// their being taken by its fabric (the delay the fabric returns is honoured). A full buffer
// holds the transmitter back, as 802.3x PAUSE frames do on a real link: the modelled
// equivalent is a credit per frame, returned when the receiver has taken a frame and the
// resume signal has crossed the link (its one-way latency). Frames are delivered through a
// DeliveryQueue, so the fabric behind the receiver may wait.
//
// Faults: `<link>.<dir>.frame_loss_rate` / `frame_loss_at` (tlm/fault/fault_injector.h) lose
// frames. A lost frame is sent in full (it occupies the wire and the receive buffer's credit)
// but the receiving NIC finds a bad FCS and drops it: it is never delivered, and its credit
// is returned as for a frame taken, so loss never leaks flow-control credits. Recovery is the
// business of the firmware above (sw/slmpm), as on a real Ethernet.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <array>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm/link/credit_pool.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/serial_resource.h"
#include "tlm/timing/transmit_buffer.h"

namespace hs::ethernet {

struct EthernetConfig {
  double gbps = 1.0;
  uint32_t mtu = 1500;
  uint32_t write_header = 16;  // remote-write header (address, length) inside the payload
  double latency_ns = 2000;    // NIC, PHY and switch, one way
  uint32_t tx_queue = 16;
  uint32_t rx_buffer = 64;  // frames the receiving NIC holds before it pauses the sender
  static EthernetConfig declare(const std::string& prefix);
  static constexpr uint32_t kFraming = 8 /*preamble+SFD*/ + 14 /*MAC*/ + 4 /*FCS*/ + 12 /*IFG*/;
  static constexpr uint32_t kMinPayload = 46;
  double bytes_per_second() const { return gbps * 1e9 / 8; }
  uint32_t data_per_frame() const { return mtu - write_header; }
  uint32_t wire_bytes(uint32_t data) const {
    return std::max(data + write_header, kMinPayload) + kFraming;
  }
};

class EthernetLink : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<EthernetLink> a_in, b_in;
  tlm_utils::simple_initiator_socket<EthernetLink> a_out, b_out;

  EthernetLink(sc_core::sc_module_name name, int link_id);
  ~EthernetLink() override;
  enum Side { A = 0, B = 1 };  // A: the host's side, B: the accelerator's

  // Declares that the fabric behind `receiver` never waits while taking a frame: its frames
  // are then taken in place at their arrival, without a thread switch
  // (tlm/link/delivery_queue.h). Before the simulation starts. Timing and order are the same.
  void receiver_never_waits(Side receiver);

  const EthernetConfig& config() const { return cfg_; }
  uint64_t frames(int dir) const;
  uint64_t frames_lost(int dir) const;

 private:
  struct Frame {
    uint64_t addr = 0;
    std::vector<uint8_t> data;
    bool lost = false;  // dropped by the receiver (bad FCS): never delivered
  };
  struct Direction;
  void from_a(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { transport(0, gp, delay); }
  void from_b(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { transport(1, gp, delay); }
  void transport(int from, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void arrive(Direction& d, Frame& f);

  int link_id_;
  EthernetConfig cfg_;
  sc_core::sc_time latency_;
  std::array<std::unique_ptr<Direction>, 2> dir_;
};

}  // namespace hs::ethernet
