#include "sw/hal/torus_dma.h"

#include <fmt/format.h>

namespace hs::fw::torus_dma {

namespace dma = hs::torus::dma;
namespace ctr = hs::counters;
using hs::torus::amap::kDmaRegs;

namespace {

uint64_t inj_reg(int fifo, uint64_t reg) {
  return kDmaRegs + dma::kInjFifoBase + static_cast<uint64_t>(fifo) * dma::kInjFifoStride + reg;
}
uint64_t rec_reg(int fifo, uint64_t reg) {
  return kDmaRegs + dma::kRecFifoBase + static_cast<uint64_t>(fifo) * dma::kRecFifoStride + reg;
}
uint64_t bank_base(Bank b) {
  return kDmaRegs + (b == Bank::Injection ? dma::kInjCounterBank : dma::kRecCounterBank);
}
uint64_t next(const FifoState& f, uint64_t pos, uint64_t step) {
  pos += step;
  return pos >= f.end ? f.start + (pos - f.end) : pos;
}

}  // namespace

void check_halted(Hal& hal) {
  if (!(hal.reg_read(kDmaRegs + dma::kStatusReg) & dma::kStatusHalted)) return;
  const uint64_t fifo = hal.reg_read(kDmaRegs + dma::kErrorFifoReg);
  const uint64_t descriptor = hal.reg_read(kDmaRegs + dma::kErrorDescriptorReg, 8);
  const uint64_t address = hal.reg_read(kDmaRegs + dma::kErrorAddressReg, 8);
  hal.fail(
      fmt::format("torus DMA engine at {:#x} halted on a bus error: the descriptor at {:#x} "
                  "in injection FIFO {} accessed {:#x}, which no target maps",
                  kDmaRegs, descriptor, fifo, address));
}

FifoState setup_injection_fifo(Hal& hal, int fifo, uint64_t start, uint64_t bytes, bool high) {
  hal.reg_write(inj_reg(fifo, dma::kFifoStart), start, 8);
  hal.reg_write(inj_reg(fifo, dma::kFifoEnd), start + bytes, 8);
  hal.reg_write(inj_reg(fifo, dma::kFifoConfig), high ? dma::kConfigHighPriority : 0, 4);
  return {fifo, start, start + bytes, start};
}

FifoState setup_reception_fifo(Hal& hal, int fifo, uint64_t start, uint64_t bytes, bool irq) {
  hal.reg_write(rec_reg(fifo, dma::kFifoStart), start, 8);
  hal.reg_write(rec_reg(fifo, dma::kFifoEnd), start + bytes, 8);
  hal.reg_write(rec_reg(fifo, dma::kFifoConfig), irq ? dma::kConfigIrq : 0, 4);
  return {fifo, start, start + bytes, start};
}

Descriptor addressed_to(const hs::torus::TorusShape& shape, int node, uint8_t fifo, uint8_t vc) {
  Descriptor d;
  const auto c = shape.coord(node);
  for (int i = 0; i < 3; ++i) d.dest[i] = static_cast<uint8_t>(c.v[i]);
  d.fifo = fifo;
  d.vc = vc;
  return d;
}

void set_deposit(Descriptor& d) {
  d.flags = static_cast<uint8_t>(d.flags | dma::kDeposit);
  d.vc = dma::kVcDeterministic;
}

uint64_t injection_head(Hal& hal, const FifoState& f) {
  return hal.reg_read(inj_reg(f.index, dma::kFifoHead), 8);
}

void inject(Hal& hal, FifoState& f, const Descriptor& d, uint64_t poll_cycles) {
  const uint64_t tail = next(f, f.mine, sizeof(Descriptor));
  // Full when advancing the tail would reach the engine's head.
  while (hal.reg_read(inj_reg(f.index, dma::kFifoHead), 8) == tail) hal.compute(poll_cycles);
  hal.store(f.mine, d);
  f.mine = tail;
  hal.reg_write(inj_reg(f.index, dma::kFifoTail), f.mine, 8);
}

bool peek_entry(Hal& hal, const FifoState& f, FifoEntryHeader& header, uint64_t& payload) {
  if (hal.reg_read(rec_reg(f.index, dma::kFifoTail), 8) == f.mine) return false;
  header = hal.load<FifoEntryHeader>(f.mine);
  payload = f.mine + sizeof(FifoEntryHeader);
  return true;
}

void pop_entry(Hal& hal, FifoState& f) {
  f.mine = next(f, f.mine, dma::kFifoSlot);
  hal.reg_write(rec_reg(f.index, dma::kFifoHead), f.mine, 8);
}

void set_counter(Hal& hal, Bank bank, uint32_t c, uint32_t value, uint64_t base, uint64_t max) {
  const uint64_t b = bank_base(bank);
  hal.reg_write(b + ctr::counter_reg(c, ctr::kBase), base >> 4, 4);
  if (bank == Bank::Reception) hal.reg_write(b + ctr::counter_reg(c, ctr::kMax), max >> 4, 4);
  hal.reg_write(b + ctr::counter_reg(c, ctr::kValue), value, 4);
}

uint32_t counter_value(Hal& hal, Bank bank, uint32_t c) {
  return static_cast<uint32_t>(hal.reg_read(bank_base(bank) + ctr::counter_reg(c, ctr::kValue), 4));
}

void enable_counter(Hal& hal, Bank bank, uint32_t c, uint32_t per_group) {
  hal.reg_write(bank_base(bank) + ctr::group_reg(c / per_group, ctr::kEnable),
                uint64_t{1} << (c % per_group), 8);
}

void enable_group_irq(Hal& hal, Bank bank, uint32_t group) {
  hal.reg_write(bank_base(bank) + ctr::group_reg(group, ctr::kIrqEnable), 1, 4);
}

uint64_t hit_zero(Hal& hal, Bank bank, uint32_t group) {
  return hal.reg_read(bank_base(bank) + ctr::group_reg(group, ctr::kHitZero), 8);
}

void clear_hit_zero(Hal& hal, Bank bank, uint32_t c, uint32_t per_group) {
  hal.reg_write(bank_base(bank) + ctr::group_reg(c / per_group, ctr::kClearHitZero),
                uint64_t{1} << (c % per_group), 8);
}

void decrement(Hal& hal, Bank bank, uint32_t c, uint32_t bytes) {
  hal.reg_write(bank_base(bank) + ctr::counter_reg(c, ctr::kDecrement), bytes, 4);
}

}  // namespace hs::fw::torus_dma
