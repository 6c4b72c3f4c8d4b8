// Firmware helpers to drive a descriptor DMA engine (hw/dma/dma_interface.h) through the HAL.
// `engine` is the engine's register base as the calling core sees it (locally, or across a
// link's window); descriptor and data addresses are as the *engine* sees them.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/dma/dma_interface.h"
#include "sw/hal/hal.h"

namespace hs::fw::dma {

using hs::dma::Descriptor;

Descriptor copy(uint64_t src, uint64_t dst, uint32_t length);
Descriptor write_value(uint64_t dst, uint64_t value);

// Stores the request's descriptors at `at` (calling core's view), flagging the last one.
void write_request(Hal& hal, uint64_t at, std::vector<Descriptor> descriptors);
// Submits the request at `request` (engine's view), first polling for a free slot.
void submit(Hal& hal, uint64_t engine, uint64_t request);
// Requests the engine has finished; an engine halted on an error is reported (report_halt).
uint32_t completed(Hal& hal, uint64_t engine);
// Reads a halted engine's error registers and fails the firmware naming the engine (its
// register base), the request, the descriptor and the address that failed.
void report_halt(Hal& hal, uint64_t engine);
// Polls kCompleted until it reaches `count`, spending `poll_cycles` between reads.
void wait_completed(Hal& hal, uint64_t engine, uint32_t count, uint64_t poll_cycles = 100);

}  // namespace hs::fw::dma
