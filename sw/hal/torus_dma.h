// Firmware driver for the torus DMA engine: FIFO set-up, descriptor injection, counters and
// reception FIFO entries, all as register accesses and memory loads/stores through the HAL.
#pragma once
#include <cstdint>

#include "hw/torus/dma/torus_dma_interface.h"
#include "hw/torus/network/torus_shape.h"
#include "hw/torus/node/node_address_map.h"
#include "sw/hal/hal.h"

namespace hs::fw::torus_dma {

using hs::torus::dma::Descriptor;
using hs::torus::dma::FifoEntryHeader;

enum class Bank { Injection, Reception };

// A FIFO as firmware tracks it: the side firmware owns (injection tail, reception head) is
// kept here, so posting and consuming cost no register reads.
struct FifoState {
  int index = 0;
  uint64_t start = 0, end = 0, mine = 0;
};

FifoState setup_injection_fifo(Hal& hal, int fifo, uint64_t start, uint64_t bytes, bool high);
FifoState setup_reception_fifo(Hal& hal, int fifo, uint64_t start, uint64_t bytes, bool irq);

// A descriptor addressed to `node`'s reception FIFO `fifo`, with the virtual channel class.
Descriptor addressed_to(const hs::torus::TorusShape& shape, int node, uint8_t fifo, uint8_t vc);

// Sets the deposit bit (torus_dma_interface.h, kDeposit): `d`'s destination must lie on a
// torus line with the sending node, else the engine refuses the descriptor; every node the
// packets pass receives them too. Asks for the deterministic VC, which the hardware takes anyway.
void set_deposit(Descriptor& d);

// Where the engine has got to in an injection FIFO: descriptors before HEAD are finished.
uint64_t injection_head(Hal& hal, const FifoState& fifo);

// Appends a descriptor to an injection FIFO (spinning while it is full) and hands it to the
// engine by moving TAIL.
void inject(Hal& hal, FifoState& fifo, const Descriptor& d, uint64_t poll_cycles = 20);

// The next reception FIFO entry: true and its header and payload address if one is waiting.
bool peek_entry(Hal& hal, const FifoState& fifo, FifoEntryHeader& header, uint64_t& payload);
// Releases the entry peek_entry returned.
void pop_entry(Hal& hal, FifoState& fifo);

// If the engine's injection has halted on a bus error (STATUS), fails the firmware naming the
// engine (its register base), the FIFO, the descriptor and the address that failed.
void check_halted(Hal& hal);

// Counters (counter = group x counters_per_group + index).
void set_counter(Hal& hal, Bank bank, uint32_t counter, uint32_t value, uint64_t base = 0,
                 uint64_t max = 0);
uint32_t counter_value(Hal& hal, Bank bank, uint32_t counter);
void enable_counter(Hal& hal, Bank bank, uint32_t counter, uint32_t per_group);
void enable_group_irq(Hal& hal, Bank bank, uint32_t group);
// The group's hit-zero bits.
uint64_t hit_zero(Hal& hal, Bank bank, uint32_t group);
void clear_hit_zero(Hal& hal, Bank bank, uint32_t counter, uint32_t per_group);
// Software decrement: bytes a core accounted for itself (memory-FIFO data it copied).
void decrement(Hal& hal, Bank bank, uint32_t counter, uint32_t bytes);

}  // namespace hs::fw::torus_dma
