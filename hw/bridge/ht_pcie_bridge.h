// The HyperTransport-to-PCIe bridge on the TriBlade's expansion blade (the HT2100's role):
// its HyperTransport side is the far end (side B) of an Opteron socket's HT link, and it is
// the root port (side A) of one PCIe link per accelerator it serves. It translates what
// crosses between the two protocols, packet by packet.
//
// Rules:
// - Downstream (HyperTransport to PCIe): an access to accelerator k's window (`windows[k]`, in
//   host physical addresses, as HyperTransport carries them) goes to PCIe link k with the
//   window's base taken off (the accelerator sees its own local address). A posted write
//   becomes one MWr of the same size (at most 64 bytes: HyperTransport carries no more); a read
//   becomes one MRd under one of the bridge's PCIe tags for that link, and its completions,
//   gathered, one HyperTransport read response. An address outside every window is answered
//   with an error response (a read) or dropped and reported (a write).
// - Upstream (PCIe to HyperTransport): the accelerators address host memory directly; a MWr
//   becomes posted writes split at 64-byte boundaries, a MRd becomes sized reads of at most 64
//   bytes (each under one of the bridge's HyperTransport SrcTags), and the responses are
//   gathered into the completions the PCIe link's completer rule gives (`rcb`,
//   `completion_split`; by default 64-byte ones, one per response), each sent once its bytes
//   and all before them have arrived, in address order, the last one flagged; an error
//   response fails the whole request. Peer-to-peer traffic is not the bridge's business: it
//   goes up, and the host's root complex decides.
// - Timing: a packet is forwarded `latency` after it arrived whole (`forwarding` =
//   store_and_forward), or after its header arrived (cut_through), but never so early that the
//   outgoing packet would have to send bytes that have not yet arrived: a faster outgoing wire
//   starts late enough to end after the incoming packet's last byte (plus `latency`).
// - Buffers and back-pressure: the bridge's input buffers are the credits its receivers
//   advertise on each link (the links' buffer and credit parameters), its output buffers the
//   transmit buffers of the links it sends on. A packet that cannot go out (its transmit
//   buffer full, no credits at the next receiver, no free tag for a read) holds its input
//   buffer, so the incoming link's credits stop coming back and its sender stops: back-pressure
//   travels hop by hop to whoever started the traffic.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/ht/ht_link.h"
#include "hw/pcie/pcie_link.h"
#include "tlm/check/checker.h"
#include "tlm/stats/statistics.h"
#include "tlm/timing/token_pool.h"

namespace hs::bridge {

class HtPcieBridge : public sc_core::sc_module {
 public:
  // `ht`'s side B and each PCIe link's side A must be built for packets (Attach::Packets);
  // `windows[k]` is where accelerator k (on pcie[k]) appears in host physical addresses, each
  // `window_size` bytes.
  HtPcieBridge(sc_core::sc_module_name name, ht::HtLink& ht, std::vector<pcie::PcieLink*> pcie,
               std::vector<uint64_t> windows, uint64_t window_size);
  ~HtPcieBridge() override;

 private:
  struct Ingress;    // a link's packets into the bridge
  struct DownRead;   // a host read forwarded to an accelerator
  struct UpRequest;  // an accelerator's read request, split into HyperTransport reads
  struct UpRead;     // one HyperTransport read of it

  sc_core::sc_time from_host(link::Packet& p);
  sc_core::sc_time from_accelerator(int k, link::Packet& p);
  // When a packet that arrived as `in` (on a wire of `in_link`) may leave as `out` on `out_link`.
  sc_core::sc_time ready(const link::Packet& in, const link::SplitLink& out_link,
                         const link::Packet& out) const;
  void count(int dir, link::PacketKind k, uint32_t bytes, const sc_core::sc_time& arrived,
             const sc_core::sc_time& leaves);

  ht::HtLink& ht_;
  std::vector<pcie::PcieLink*> pcie_;
  std::vector<uint64_t> windows_;
  uint64_t window_size_;
  sc_core::sc_time latency_;
  bool cut_through_;
  std::vector<std::unique_ptr<Ingress>> ingress_;
  std::vector<std::unique_ptr<TokenPool>> pcie_tags_;  // the bridge's tags on each PCIe link
  TokenPool ht_tags_;                                  // its SrcTags on the HyperTransport link
  uint32_t reads_down_ = 0, reads_up_ = 0;             // traced signals: reads in flight each way

  StatGroup stats_;
  std::array<std::array<Counter*, link::kPacketKinds>, 2> forwarded_{};  // [dir][kind]
  std::array<Counter*, 2> bytes_{};
  Occupancy& down_reads_;
  Occupancy& up_reads_;
  Histogram& transit_;
  Check& mapped_check_;
  int track_;
};

}  // namespace hs::bridge
