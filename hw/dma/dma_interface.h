// The descriptor DMA engine's programming interface, shared by the hardware model and the
// firmware that drives it: register offsets and the in-memory descriptor format.
//
// Firmware writes a request, a list of 32-byte descriptors ending with one flagged kLast,
// into memory the engine can read, then writes the list's address to kSubmit. The engine
// executes requests in submission order and the descriptors of each in list order: a kWrite
// descriptor after kCopy descriptors is issued only once their data has been written (the
// completion-write idiom). kCompleted counts finished requests.
//
// An access that fails (an address no target maps) halts the engine: kCompleted gains
// kHalted, kError holds kBusError and kErrorRequest/kErrorDescriptor/kErrorAddress say which
// request, which of its descriptors and which address. Firmware polling kCompleted sees the
// halt and reports it; nothing further runs.
#pragma once
#include <cstdint>

namespace hs::dma {

// Registers (offsets from the engine's base address).
constexpr uint64_t kSubmit = 0x00;        // 8 B write: address of a request's first descriptor
constexpr uint64_t kSpace = 0x08;         // 4 B read: free request slots
constexpr uint64_t kCompleted = 0x0C;     // 4 B read: requests finished since reset
constexpr uint64_t kIrqAddress = 0x10;    // 8 B: where interrupting descriptors write (a doorbell)
constexpr uint64_t kError = 0x18;         // 4 B read: code of the last rejected request (0: none)
constexpr uint64_t kErrorRequest = 0x20;  // 8 B read: the halted request's address
constexpr uint64_t kErrorDescriptor = 0x28;  // 8 B read: the failing descriptor's address
constexpr uint64_t kErrorAddress = 0x30;     // 8 B read: the address whose access failed
constexpr uint64_t kRegisterSpan = 0x38;
constexpr uint32_t kHalted = 1u << 31;  // in kCompleted: halted on an error

// Where the bad_descriptor fault points a descriptor: an address no target maps in the host's
// an accelerator's or a torus node's map.
constexpr uint64_t kPoisonAddress = 0x00DE'AD00'0000'0000;

enum Op : uint8_t { kCopy = 1, kWrite = 2 };
enum Flags : uint8_t { kLast = 1, kIrq = 2 };
enum Error : uint32_t { kNoError = 0, kQueueOverflow = 1, kBadDescriptor = 2, kBusError = 3 };

struct Descriptor {
  uint8_t op = 0;
  uint8_t flags = 0;
  uint16_t irq_line = 0;  // with kIrq: written to the kIrqAddress doorbell when done
  uint32_t length = 0;    // kCopy: bytes to move
  uint64_t src = 0;       // kCopy: source address
  uint64_t dst = 0;       // kCopy: destination; kWrite: where the value goes
  uint64_t value = 0;     // kWrite: the 8-byte value
};
static_assert(sizeof(Descriptor) == 32, "descriptors are 32 bytes in memory");

}  // namespace hs::dma
