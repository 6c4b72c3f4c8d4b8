// The torus DMA engine's programming interface: descriptor format, register map, reception
// FIFO entry format and interrupt lines. Firmware and the model both use these definitions.
#pragma once
#include <cstdint>

#include "hw/dma_counters/counter_registers.h"

namespace hs::torus::dma {

enum DescKind : uint8_t { kMemoryFifo = 0, kDirectPut = 1, kRemoteGet = 2 };
enum DescFlags : uint8_t {
  // The packet size comes from the injection counter: each packet takes min(max payload,
  // counter value), so two descriptors sharing one counter claim disjoint ranges (the split
  // protocol: one ascending, one descending) and stop when it reaches zero.
  kClaimFromCounter = 1,
  kDescending = 2,  // send from the high end downward
  // Deposit bit: the destination must lie on a line with this node (differ in exactly one
  // coordinate); every node the packets pass on the way receives them too, as if addressed to
  // it (same reception counter or FIFO), so each such node must be set up to take them.
  // Routed deterministically. Not for remote gets.
  kDeposit = 4,
};
enum VcRequest : uint8_t { kVcDynamic = 0, kVcDeterministic = 1, kVcHighPriority = 2 };

// A 32-byte injection descriptor, as stored in an injection FIFO.
struct Descriptor {
  uint64_t src = 0;          // local source buffer
  uint32_t length = 0;       // bytes (remote get: bytes of descriptors in the payload)
  uint32_t put_offset = 0;   // direct put: destination offset from the remote counter's base;
                             // memory FIFO: message offset of the first byte
  uint32_t sw0 = 0;          // memory FIFO: software header word carried in every packet
  uint16_t inj_counter = 0;  // local injection counter decremented by each packet's payload
  uint16_t rec_counter = 0;  // direct put: remote reception counter
  uint8_t kind = kMemoryFifo;
  uint8_t flags = 0;
  uint8_t dest[3] = {0, 0, 0};  // torus coordinates x, y, z
  uint8_t vc = kVcDynamic;
  uint8_t fifo = 0;  // memory FIFO: remote reception FIFO; remote get: remote injection FIFO
  uint8_t reserved = 0;
};
static_assert(sizeof(Descriptor) == 32, "descriptors are 32 bytes");

// A reception FIFO entry: a 16-byte header and the packet's payload, in a 256-byte slot.
struct FifoEntryHeader {
  uint32_t offset;       // message offset of the first payload byte
  uint32_t sw0;          // software header word
  uint32_t sw1;          // the sending descriptor's length (the message size)
  uint32_t src : 23;     // source node number (a 128x128x128 torus has 2^21 nodes)
  uint32_t payload : 9;  // payload bytes in this entry (at most a packet's, 256)
};
static_assert(sizeof(FifoEntryHeader) == 16, "entry headers are 16 bytes");
constexpr uint32_t kFifoSlot = 256;

// Registers, offsets within the DMA window.
constexpr uint64_t kInjFifoBase = 0x0000, kInjFifoStride = 0x40;
constexpr uint64_t kRecFifoBase = 0x1000, kRecFifoStride = 0x40;
// Per FIFO: START (8; writing it empties the FIFO: head = tail = start), END (8), HEAD (8),
// TAIL (8), CONFIG (4).
constexpr uint64_t kFifoStart = 0x00, kFifoEnd = 0x08, kFifoHead = 0x10, kFifoTail = 0x18,
                   kFifoConfig = 0x20;
// Injection FIFO CONFIG bit 0: high priority. Reception FIFO CONFIG bit 0: interrupt when an
// entry lands.
constexpr uint32_t kConfigHighPriority = 1, kConfigIrq = 1;
// Injection: firmware writes descriptors at TAIL and advances TAIL; the engine advances HEAD.
// Reception: the engine writes entries at TAIL; firmware consumes from HEAD and advances it.
constexpr uint64_t kErrorReg = 0x2000;    // ro 4: last error code (0 none)
constexpr uint64_t kRxBytesReg = 0x2008;  // ro 8: payload bytes the reception unit has stored
// An injection access that fails (a descriptor fetch, or a payload read from an address no
// target maps) halts the injection engine: STATUS gains kStatusHalted, ERROR holds kBusError,
// ERROR_FIFO / ERROR_DESCRIPTOR / ERROR_ADDRESS say which FIFO, which descriptor (it stays at
// the FIFO's HEAD) and which address, and kErrorIrq is raised. Reception goes on; nothing more
// is injected.
constexpr uint64_t kStatusReg = 0x2010;           // ro 4: kStatusHalted
constexpr uint64_t kErrorFifoReg = 0x2018;        // ro 4: the halted injection FIFO
constexpr uint64_t kErrorDescriptorReg = 0x2020;  // ro 8: the failing descriptor's address
constexpr uint64_t kErrorAddressReg = 0x2028;     // ro 8: the address whose access failed
constexpr uint32_t kStatusHalted = 1;
constexpr uint64_t kInjCounterBank = 0x4000;
constexpr uint64_t kRecCounterBank = 0x8000;
constexpr uint64_t kRegisterSpan = 0xC000;

enum Error : uint32_t {
  kNoError = 0,
  kBadDescriptor = 1,
  kBusError = 2,
  kBoundsError = 3,
  kUnderflow = 4,
  kBadFifo = 5,
};

// Interrupt lines, presented to every core of the node.
constexpr unsigned injection_counter_irq(unsigned group) {
  return group;
}
constexpr unsigned reception_counter_irq(unsigned group) {
  return 4 + group;
}
constexpr unsigned reception_fifo_irq(unsigned fifo) {
  return 8 + fifo;
}
constexpr unsigned kErrorIrq = 15;

}  // namespace hs::torus::dma
