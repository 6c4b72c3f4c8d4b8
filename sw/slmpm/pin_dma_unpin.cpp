#include "sw/slmpm/pin_dma_unpin.h"

#include <fmt/format.h>

#include "sw/hal/dma.h"

namespace hs::fw::pdu {

using CB = ControlBlocks;

namespace {
// Request slots per engine. The engine reads a request's descriptors only when it starts it,
// so a slot is rewritten only once the request last written there has completed: the
// engine's queue may be deeper than this area.
constexpr uint64_t kRequestSlots = 64;

// Polls until `done()`; a wait longer than `stall` cycles fails the run (liveness).
template <class Done>
void wait_until(Hal& hal, Done done, uint64_t stall, uint64_t poll_cycles,
                const std::string& what) {
  const uint64_t start = hal.cycles();
  while (!done()) {
    if (hal.cycles() - start > stall) {
      hal.fail(fmt::format("unpin stalled: {} still unmet after {} cycles", what, stall));
    }
    hal.compute(poll_cycles);
  }
}
}  // namespace

Injector::Injector(Hal& hal, const ControlBlocks& cb, const View& view, int app, int engine,
                   Embodiment emb)
    : hal_(hal), cb_(cb), view_(view), app_(app), engine_(engine), emb_(emb) {}

bool Injector::inject(int region, uint64_t src, uint64_t offset, uint32_t length) {
  const uint64_t H = view_.host;
  const uint64_t dicb = H + cb_.dicb(app_);
  // 1. Announce entry before looking at valid.
  hal_.store<uint64_t>(dicb + CB::kEntrance, ++entrance_);
  if (entrance_ - exit_ > 1)
    hal_.fail("pin/DMA/unpin: entrance - exit exceeds 1 in a single thread");
  // 2. Is the region still pinned?
  const uint64_t mrcb = H + cb_.mrcb(region);
  if (hal_.load<uint64_t>(mrcb + CB::kValid) == 0) {
    hal_.store<uint64_t>(dicb + CB::kExit, ++exit_);  // the exit the source forgot
    ++rejected_;
    return false;
  }
  const uint64_t dma_addr = hal_.load<uint64_t>(mrcb + CB::kDmaAddr);
  // 3. Take the engine's next sequence number (this application is the engine's only feeder,
  //    so taking it and enqueueing are atomic per engine).
  const uint64_t s = ++issued_;
  hal_.store<uint64_t>(H + cb_.decb(engine_) + CB::kIssued, s);
  if (emb_ == Embodiment::B) hal_.store<uint64_t>(mrcb + CB::last_issued(engine_), s);
  // 4. The data, then the completion write of s, as one request.
  const uint64_t completion =
      view_.host_from_engine + (emb_ == Embodiment::A ? cb_.decb(engine_) + CB::kCompleted
                                                      : cb_.mrcb(region) + CB::cseq(engine_));
  // This application is the engine's only feeder: COMPLETED counts its own requests.
  while (slot_ - dma::completed(hal_, view_.engine_regs) >= kRequestSlots) hal_.compute(100);
  const uint64_t slot = (slot_++ % kRequestSlots) * 2 * sizeof(dma::Descriptor);
  while (hal_.reg_read(view_.engine_regs + hs::dma::kSpace) == 0) hal_.compute(100);
  dma::write_request(hal_, view_.requests + slot,
                     {dma::copy(src, view_.host_from_engine + dma_addr + offset, length),
                      dma::write_value(completion, s)});
  hal_.reg_write(view_.engine_regs + hs::dma::kSubmit, view_.requests_engine + slot, 8);
  // 5. Leave.
  hal_.store<uint64_t>(dicb + CB::kExit, ++exit_);
  return true;
}

Region pin(Hal& hal, os::OsModel& os, const ControlBlocks& cb, int region, uint64_t lo, uint64_t hi,
           int engines) {
  auto h = os.register_range(hal, lo, hi);
  if (!h) hal.fail(fmt::format("the OS refused to pin region {} [{:#x}, {:#x})", region, lo, hi));
  const uint64_t m = cb.mrcb(region);
  hal.store<uint64_t>(m + CB::kLo, lo);
  hal.store<uint64_t>(m + CB::kHi, hi);
  hal.store<uint64_t>(m + CB::kDmaAddr, lo);  // the handle maps the range one to one
  for (int k = 0; k < engines; ++k) {
    hal.store<uint64_t>(m + CB::cseq(k), 0);
    hal.store<uint64_t>(m + CB::last_issued(k), 0);
  }
  hal.store<uint64_t>(m + CB::kValid, 1);  // last: the fields are in place before anyone sees it
  return Region{lo, hi, *h};
}

void unpin(Hal& hal, os::OsModel& os, const ControlBlocks& cb, int region, const Region& reg,
           Embodiment emb, UnpinRule rule, int apps, int engines, uint64_t stall_cycles,
           uint64_t poll_cycles) {
  const uint64_t m = cb.mrcb(region);
  hal.store<uint64_t>(m + CB::kValid, 0);  // (a) no new request for the region
  auto load = [&](uint64_t addr) { return hal.load<uint64_t>(addr); };
  if (rule == UnpinRule::Repaired) {
    // (b) every request already started has been handed to its engine.
    for (int a = 0; a < apps; ++a) {
      const uint64_t entered = load(cb.dicb(a) + CB::kEntrance);
      wait_until(
          hal, [&] { return load(cb.dicb(a) + CB::kExit) >= entered; }, stall_cycles, poll_cycles,
          fmt::format("application {} exit >= {}", a, entered));
    }
    // (c) every request handed to an engine has completed.
    for (int k = 0; k < engines; ++k) {
      if (emb == Embodiment::A) {
        const uint64_t issued = load(cb.decb(k) + CB::kIssued);
        wait_until(
            hal, [&] { return load(cb.decb(k) + CB::kCompleted) >= issued; }, stall_cycles,
            poll_cycles, fmt::format("engine {} completed >= {}", k, issued));
      } else {
        const uint64_t last = load(m + CB::last_issued(k));
        wait_until(
            hal, [&] { return load(m + CB::cseq(k)) >= last; }, stall_cycles, poll_cycles,
            fmt::format("region {} engine {} cseq >= {}", region, k, last));
      }
    }
  } else if (rule == UnpinRule::Literal) {
    for (int a = 0; a < apps; ++a) {
      // "entrance >= exit": true the moment it is read, so it never waits.
      wait_until(
          hal, [&] { return load(cb.dicb(a) + CB::kEntrance) >= load(cb.dicb(a) + CB::kExit); },
          stall_cycles, poll_cycles, "literal entrance >= exit");
    }
    for (int k = 0; k < engines; ++k) {
      if (emb == Embodiment::A) {
        // Written backwards: issued >= completed, also true at once.
        wait_until(
            hal,
            [&] { return load(cb.decb(k) + CB::kIssued) >= load(cb.decb(k) + CB::kCompleted); },
            stall_cycles, poll_cycles, "literal issued >= completed");
      } else {
        // cseq[k] >= issued[k]: the engine's issued count includes other regions' requests.
        wait_until(
            hal, [&] { return load(m + CB::cseq(k)) >= load(cb.decb(k) + CB::kIssued); },
            stall_cycles, poll_cycles,
            fmt::format("literal region {} cseq[{}] >= issued[{}]", region, k, k));
      }
    }
  }
  if (!os.deregister(hal, reg.handle)) hal.fail(fmt::format("region {} was not pinned", region));
}

}  // namespace hs::fw::pdu
