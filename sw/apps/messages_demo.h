// SLMPM messages from host core a to accelerator a: a mix of send and put of random sizes to
// accelerator IDs of every form, `window` in flight, each message's mode chosen by the SLMPM.
// The accelerator checks every delivered byte against the pattern its source buffer holds.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/mode_selection.h"
#include "sw/slmpm/registration_cache.h"
#include "sw/slmpm/shared_memory.h"

namespace hs::fw::messages_demo {

constexpr uint32_t kBuffers = 8;
constexpr uint64_t kBufferBytes = 1 << 20;
constexpr uint32_t kMaxReceiveSlots = 65;  // one more than the largest window

// Host DRAM.
constexpr uint64_t kHostSources = 0x2800'0000;  // kBuffers buffers of kBufferBytes
constexpr uint64_t kHostGetDest = 0x2A00'0000;  // where gets land, one buffer each
// Accelerator DRAM: the receive slots (sends), put destinations and get sources, apart.
constexpr uint64_t kAccReceive = 0x2800'0000;
constexpr uint64_t kAccPutArea = 0x2D00'0000;
constexpr uint64_t kAccGetSources = 0x2E00'0000;
constexpr uint64_t kAccRequests = 0x5300'0000;
static_assert(kAccReceive + kMaxReceiveSlots * kBufferBytes <= kAccPutArea, "slots below puts");
static_assert(kAccPutArea + kBuffers * kBufferBytes <= kAccGetSources, "puts below get sources");
static_assert(kAccGetSources + kBuffers * kBufferBytes <= slmpm::shm::kAccRegion,
              "get sources below the SLMPM's shared memory");
static_assert(kHostSources + kBuffers * kBufferBytes <= kHostGetDest, "host areas apart");

enum class IdForms { Mixed, Pcie, Mac, Global };
enum class Operations { Mixed, Send, Put, Get };

struct Config {
  int accelerator = 0;
  uint32_t segments = 32;
  bool ethernet = true;
  uint64_t messages = 200;
  uint32_t max_bytes = 256 * 1024;
  bool fixed_size = false;  // every message max_bytes long (else spread over sizes)
  uint32_t window = 4;
  uint32_t receive_slots = 5;  // the accelerator's receive area for sends
  IdForms ids = IdForms::Mixed;
  Operations ops = Operations::Mixed;
  slmpm::Thresholds thresholds;
  slmpm::Resend resend{true};  // the Ethernet channel's (never the PCIe one's)
  uint64_t seed = 1;
};

struct Results {
  uint64_t smt = 0, dma = 0, pcie = 0, ethernet = 0, delivered = 0, gets = 0;
  uint64_t bytes = 0;    // message bytes moved (sends, puts and gets)
  uint64_t resends = 0;  // rewrites by the host's resending (Ethernet) channel
  double elapsed_us = 0;
  bool finished = false;
};

// The byte at `offset` of host source buffer `b` (both sides compute it).
inline uint8_t pattern(uint32_t b, uint64_t offset) {
  return static_cast<uint8_t>(b * 37 + offset * 11 + (offset >> 9));
}

void host_program(Hal& hal, const Config& cfg, os::OsModel& os, slmpm::RegistrationCache* cache,
                  Results& out);
void accelerator_program(Hal& hal, const Config& cfg, Results& out);

}  // namespace hs::fw::messages_demo
