#include "sw/hal/dma.h"

#include <fmt/format.h>

namespace hs::fw::dma {

namespace regs = hs::dma;

Descriptor copy(uint64_t src, uint64_t dst, uint32_t length) {
  Descriptor d;
  d.op = regs::kCopy;
  d.src = src;
  d.dst = dst;
  d.length = length;
  return d;
}

Descriptor write_value(uint64_t dst, uint64_t value) {
  Descriptor d;
  d.op = regs::kWrite;
  d.dst = dst;
  d.value = value;
  return d;
}

void write_request(Hal& hal, uint64_t at, std::vector<Descriptor> descriptors) {
  if (descriptors.empty()) hal.fail("a DMA request needs at least one descriptor");
  descriptors.back().flags |= regs::kLast;
  hal.store(at, descriptors.data(), descriptors.size() * sizeof(Descriptor));
}

void submit(Hal& hal, uint64_t engine, uint64_t request) {
  while (hal.reg_read(engine + regs::kSpace) == 0) hal.compute(100);
  hal.reg_write(engine + regs::kSubmit, request, 8);
}

uint32_t completed(Hal& hal, uint64_t engine) {
  const auto v = static_cast<uint32_t>(hal.reg_read(engine + regs::kCompleted));
  if (v & regs::kHalted) report_halt(hal, engine);
  return v;
}

void report_halt(Hal& hal, uint64_t engine) {
  const uint64_t request = hal.reg_read(engine + regs::kErrorRequest, 8);
  const uint64_t descriptor = hal.reg_read(engine + regs::kErrorDescriptor, 8);
  const uint64_t address = hal.reg_read(engine + regs::kErrorAddress, 8);
  const auto code = static_cast<uint32_t>(hal.reg_read(engine + regs::kError));
  hal.fail(
      fmt::format("DMA engine at {:#x} halted on {}: descriptor {} of the request at {:#x} "
                  "(descriptor at {:#x}) accessed {:#x}, which no target maps",
                  engine, code == regs::kBusError ? "a bus error" : "an error",
                  (descriptor - request) / sizeof(Descriptor), request, descriptor, address));
}

void wait_completed(Hal& hal, uint64_t engine, uint32_t count, uint64_t poll_cycles) {
  while (completed(hal, engine) < count) hal.compute(poll_cycles);
}

}  // namespace hs::fw::dma
