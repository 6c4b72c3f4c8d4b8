// SLMPM messages from host core a to accelerator a: a mix of send and put of random sizes to
// accelerator IDs of every form, `window` in flight, each message's mode chosen by the SLMPM.
// The accelerator checks every delivered byte against the pattern its source buffer holds.
#pragma once
#include <cstdint>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"
#include "sw/slmpm/mode_selection.h"
#include "sw/slmpm/registration_cache.h"

namespace hs::fw::messages_demo {

constexpr uint64_t kHostSources = 0x2800'0000;  // 8 host buffers of 1 MiB
constexpr uint64_t kAccReceive = 0x2800'0000;   // receive slots (send)
constexpr uint64_t kAccPutArea = 0x2900'0000;   // put destinations
constexpr uint64_t kAccRequests = 0x5300'0000;
constexpr uint64_t kAccGetSources = 0x2A00'0000;  // accelerator buffers the host gets from
constexpr uint64_t kHostGetDest = 0x2A00'0000;    // host buffers gets land in
constexpr uint32_t kBuffers = 8;
constexpr uint64_t kBufferBytes = 1 << 20;
constexpr uint32_t kMaxReceiveSlots = 65;  // one more than the largest window

enum class IdForms { Mixed, Pcie, Mac, Global };
enum class Operations { Mixed, Send, Put, Get };

struct Config {
  int accelerator = 0;
  uint32_t segments = 32;
  bool ethernet = true;
  uint64_t messages = 200;
  uint32_t max_bytes = 256 * 1024;
  uint32_t window = 4;
  uint32_t receive_slots = 5;  // the accelerator's receive area for sends
  IdForms ids = IdForms::Mixed;
  Operations ops = Operations::Mixed;
  slmpm::Thresholds thresholds;
  uint64_t seed = 1;
};

struct Results {
  uint64_t smt = 0, dma = 0, pcie = 0, ethernet = 0, delivered = 0, gets = 0;
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
