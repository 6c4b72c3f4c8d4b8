// The AMI's trace port: firmware reports each protocol step here (as it would to a trace
// buffer) so checkers can assert the protocol's invariants in any run. Endpoint numbers are
// the adapters' (torus node, or core on the node for the shared-memory adapter). The default
// does nothing.
#pragma once
#include <cstdint>

#include "sw/ami/wire.h"

namespace hs::fw::ami {

enum class StopCause : uint8_t {
  None = 0,
  Unexpected,            // no matching RECEIVE posted
  TempSpace,             // AMI receive buffer cannot hold the rest of an unexpected message
  AdapterBuffer,         // adapter receive buffer fill above its level
  LinkUtilisation,       // network bandwidth utilisation above its level
  ProcessorUtilisation,  // busy (not idle) share of the core above its level
};
constexpr int kStopCauses = 6;
const char* stop_cause_name(StopCause c);

enum class GetKind : uint8_t { Remainder, Bottom, Final, Hole, Rendezvous, User };
const char* get_kind_name(GetKind k);

class AmiTrace {
 public:
  virtual ~AmiTrace() = default;
  // Injection FIFO and callbacks.
  virtual void injected(int /*ep*/, uint64_t /*seq*/, int /*occupancy*/, int /*slots*/) {}
  virtual void listed(int /*ep*/, uint64_t /*seq*/) {}
  virtual void called(int /*ep*/, uint64_t /*seq*/, uint64_t /*transfer_counter*/) {}
  virtual void pending(int /*ep*/, int /*count*/) {}
  // Sender.
  virtual void send_posted(int /*ep*/, int /*dest*/, uint32_t /*msg*/, uint32_t /*size*/,
                           Protocol) {}
  virtual void eager_posted(int /*ep*/, int /*dest*/, uint32_t /*msg*/, uint32_t /*lo*/,
                            uint32_t /*hi*/) {}
  virtual void stop_processed(int /*ep*/, int /*dest*/, uint32_t /*msg*/, uint32_t /*eager*/) {}
  virtual void put_posted(int /*ep*/, int /*dest*/, uint32_t /*msg*/, uint32_t /*lo*/,
                          uint32_t /*hi*/) {}
  virtual void ack_received(int /*ep*/, int /*dest*/, uint32_t /*msg*/) {}
  virtual void send_done(int /*ep*/, int /*dest*/, uint32_t /*msg*/) {}
  // Receiver.
  virtual void message_arrived(int /*ep*/, int /*src*/, uint32_t /*msg*/, uint32_t /*size*/,
                               Protocol) {}
  virtual void committed(int /*ep*/, int /*src*/, uint32_t /*msg*/, uint32_t /*lo*/,
                         uint32_t /*hi*/) {}
  virtual void discarded(int /*ep*/, int /*src*/, uint32_t /*msg*/, uint32_t /*lo*/,
                         uint32_t /*hi*/) {}
  virtual void stop_sent(int /*ep*/, int /*src*/, uint32_t /*msg*/, StopCause) {}
  virtual void cts_received(int /*ep*/, int /*src*/, uint32_t /*msg*/, uint32_t /*eager*/) {}
  // RDMA into the application buffer [buf, buf + size) of a message begins; RDMA bytes that
  // land there are committed by the adapter (rdma_landed).
  virtual void rdma_target(int /*ep*/, int /*src*/, uint32_t /*msg*/, uint64_t /*buf*/,
                           uint32_t /*size*/) {}
  virtual void get_posted(int /*ep*/, int /*src*/, uint32_t /*msg*/, uint32_t /*lo*/,
                          uint32_t /*hi*/, GetKind) {}
  virtual void rdma_landed(int /*ep*/, uint64_t /*addr*/, uint32_t /*bytes*/) {}
  virtual void temp_usage(int /*ep*/, uint64_t /*used*/, uint64_t /*capacity*/) {}
  virtual void receive_done(int /*ep*/, int /*src*/, uint32_t /*msg*/) {}
};

}  // namespace hs::fw::ami
