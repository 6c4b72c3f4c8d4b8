// The transaction layer at one side of a split-transaction link (tlm/link/split_link.h), where
// a bus fabric meets the link: bus accesses from the fabric become packets, and packets from
// the far side become bus accesses into the fabric.
//
// As a requester (`in`): a write becomes posted write packets split by the link's format (at
// max payload and its boundaries); the initiator continues once its last packet holds a slot
// in the transmit buffer, and the data becomes visible on the far side when each packet
// arrives. A read becomes read requests (one tag each, `tags` per requester); the initiator
// blocks until the last completion has arrived, and the read fails if any completion says the
// request failed.
//
// As a completer (`out`): a write packet is delivered into the fabric, and the delay the
// fabric returns is honoured before its credits go back; a write the fabric does not accept
// fails the check "<protocol>: posted writes accepted by their target" (the requester never
// hears of it: it was posted). A read request is served when it arrives: the fabric is read
// then (so every earlier posted write on this wire is already visible: a read never passes a
// write), and the data goes back in completions split by the format, ready once the fabric's
// delay has passed; a failed read is answered by one completion without data.
//
// Transactions delivered into the fabric carry a LinkPacketExt (tlm/payload/extensions.h)
// naming the protocol, the packet kind and the link, so checkers and targets can tell them from
// local ones.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm/check/checker.h"
#include "tlm/link/split_link.h"
#include "tlm/payload/extensions.h"
#include "tlm/timing/token_pool.h"

namespace hs::link {

class TransactionPort : public sc_core::sc_module, public PacketReceiver {
 public:
  tlm_utils::simple_target_socket<TransactionPort> in;      // accesses to carry across
  tlm_utils::simple_initiator_socket<TransactionPort> out;  // accesses the far side made

  TransactionPort(sc_core::sc_module_name name, SplitLink& link, SplitLink::Side side);

  // The fabric behind `out` never waits while taking an access (memories, registers, address
  // decoders): packets are taken in place at their arrival. Before the run; timing and order
  // are the same either way.
  void fabric_never_waits();

  sc_core::sc_time take(Packet& p) override;

 private:
  struct Access;  // a blocking read in progress, on its initiator's stack
  struct Read;    // one read request of it

  void transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void post_writes(tlm::tlm_generic_payload& gp, sc_core::sc_time& local);
  void issue_reads(tlm::tlm_generic_payload& gp, sc_core::sc_time& local);
  sc_core::sc_time deliver_write(Packet& p);
  sc_core::sc_time complete_read(Packet& p);
  void complete(Packet& p);

  SplitLink& link_;
  SplitLink::Side side_;
  TokenPool tags_;
  TaggedPayload<LinkPacketExt> delivery_;  // reused for every access delivered into the fabric
  std::vector<uint8_t> read_buffer_;       // a read request's data, read from the fabric
  std::vector<uint32_t> completion_sizes_;
  Check& accepted_check_;  // "<protocol>: posted writes accepted by their target"
  Check& tags_check_;      // "<protocol>: reads in flight within the requester's tags"
};

}  // namespace hs::link
