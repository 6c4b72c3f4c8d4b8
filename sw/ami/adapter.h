// What the AMI needs from a communications adapter: an injection FIFO of N descriptor slots
// processed in order with a transfer counter of completed descriptors, a receive buffer of
// packets, and byte counters that RDMA transfers decrement. The torus DMA engine provides
// these in hardware (torus_adapter.h); between endpoints on one node a shared-memory adapter
// provides them with the cores' loads, stores and atomics (shm_adapter.h).
#pragma once
#include <cstdint>

namespace hs::fw::ami {

enum class TransferKind : uint8_t {
  Packet,  // `bytes` from `local` as packets into the peer's receive buffer
  Put,     // `bytes` from `local` into the peer's memory, decrementing its counter
  Get,     // `bytes` of the peer's memory into local memory, decrementing a local counter
};

struct Transfer {
  TransferKind kind = TransferKind::Packet;
  int peer = 0;
  uint64_t local = 0;   // Packet, Put: source; Get: unused (the counter's base + offset)
  uint64_t remote = 0;  // Get: source at the peer
  uint32_t bytes = 0;
  uint32_t sw0 = 0, offset = 0;  // Packet: software header word, offset of the first byte
  // Put: the peer's counter and the destination's offset from its base. Get: the local
  // counter and offset.
  int rx_counter = -1;
  uint32_t rx_offset = 0;
  // The source side's byte counter (Packet, Put: local; Get: the peer's). With `claim`, each
  // packet takes min(its size, the counter's value) and the transfer ends when it reaches 0,
  // so two transfers sharing the counter, one ascending and one descending, never overlap.
  int tx_counter = -1;
  bool claim = false, descending = false;
};

// One packet in the receive buffer.
struct Arrival {
  uint32_t sw0 = 0, offset = 0;
  int src = 0;
  uint32_t bytes = 0;
  uint64_t payload = 0;  // where its payload is
};

class Adapter {
 public:
  virtual ~Adapter() = default;
  virtual void init() = 0;

  // Injection FIFO.
  virtual int slots() const = 0;
  // Descriptors the adapter has finished since init(), read from the adapter.
  virtual uint64_t transfer_counter() = 0;
  // Appends a descriptor; the caller has made sure a slot is free.
  virtual void inject(const Transfer& t) = 0;
  // Lets a software adapter move data (the shared-memory adapter copies here); the torus
  // DMA needs no core and does nothing.
  virtual void process() {}

  // Receive buffer.
  virtual bool peek(Arrival& a) = 0;
  virtual void pop() = 0;
  virtual double receive_fill() = 0;         // fraction of the receive buffer in use
  virtual uint32_t max_payload() const = 0;  // bytes one packet carries

  // Network: payload bytes received so far (0 when there is no network link), and the
  // link's payload bandwidth in bytes per second.
  virtual uint64_t bytes_received() = 0;
  virtual double link_bytes_per_second() const = 0;

  // Byte counters. Receive side: a counter over [base, base + bytes) that RDMA writes into
  // decrement; software decrements it for bytes it stored itself.
  virtual int open_rx_counter(uint64_t base, uint32_t bytes, uint32_t value) = 0;
  virtual uint32_t rx_counter_offset(int c, uint64_t addr) const = 0;
  virtual uint32_t rx_counter_value(int c) = 0;
  virtual void rx_counter_sub(int c, uint32_t n) = 0;
  virtual void close_rx_counter(int c) = 0;
  // Send side: a counter the packets and puts from a buffer decrement (and may claim from);
  // -1 while every free counter is still draining a closed transfer's queued claims.
  virtual int open_tx_counter(uint32_t value) = 0;
  virtual void close_tx_counter(int c) = 0;
  // The receiver has every byte of the buffer counter `c` covers (it ACKed): descriptors
  // still queued against the counter may finish without moving anything. The torus DMA
  // delivers them whether or not the receiver still polls, and ignores this.
  virtual void abandon_tx_counter(int) {}
  virtual int control_counter() const = 0;  // never reaches 0; for transfers that never claim
};

}  // namespace hs::fw::ami
