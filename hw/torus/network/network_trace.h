// The torus network's part of the transaction trace. Per node (one trace process each): a
// thread per outgoing link with a span per packet crossing it (id, source, destination, VC,
// size, kind), a counter per link VC with the chunks its downstream buffer holds as the
// sending router's tokens count them, and a counter per injection queue with the packets in it.
// Link faults sit on the link's thread: a "CRC error" span from a corrupted copy's first byte
// to its retransmission, and a "link failed" instant.
//
// The network is the simulator's hot path: it tests on() (cached when the network is built,
// after the trace was opened) before calling anything here, so a run without a trace pays one
// predictable branch per hook. Tracks are made on first use, so an idle link adds nothing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/torus/network/torus_packet.h"
#include "hw/torus/network/torus_shape.h"

namespace hs::torus {

class NetworkTrace {
 public:
  // `vcs`: escape (0), dynamic (1..vcs-2), high priority (vcs-1).
  NetworkTrace(const std::string& network_name, const TorusShape& shape, int vcs, int inj_queues,
               int vc_buffer_chunks);
  bool on() const { return on_; }
  // The compute node at `node` (its hierarchical name): the node's tracks join its process.
  // Until then they sit in a process named after the network and the node's coordinates.
  void name_node(int node, const std::string& name);

  void hop(const Packet& p, int node, int dir, int vc, uint64_t start_ps, uint64_t end_ps);
  void tokens(int node, int dir, int vc, int tokens, uint64_t at_ps);
  // A corrupted copy of `p` on [start, end), retransmitted from `resend_ps`.
  void crc_error(const Packet& p, int node, int dir, uint64_t start_ps, uint64_t end_ps,
                 uint64_t resend_ps);
  void link_failed(int node, int dir, uint64_t at_ps);
  void injection(int node, int queue, uint32_t packets, uint64_t at_ps);

 private:
  static constexpr int kUnmade = -2;  // -1 is the trace's "not traced"
  int made(int& slot, const std::string& name, const char* unit);
  int link_track(int node, int dir);
  std::string vc_name(int vc) const;

  bool on_;
  TorusShape shape_;
  int vcs_, inj_queues_, buffer_chunks_;
  std::vector<std::string> prefix_;  // by node
  std::vector<int> link_tracks_, vc_tracks_, injection_tracks_;
};

}  // namespace hs::torus
