#include "sw/apps/transfer_demo.h"

#include <deque>

#include "hw/hybrid/address_map.h"
#include "sw/slmpm/dma_transfer.h"
#include "sw/slmpm/shared_memory.h"

namespace hs::fw::transfer_demo {

namespace amap = hybrid::amap;
namespace shm = slmpm::shm;

void host_program(Hal& hal, const Config& cfg, os::OsModel& os, slmpm::RegistrationCache* cache,
                  Results& out) {
  Phase phase(hal, "DMA transfers");
  slmpm::HostDmaTransfers dma(hal, shm::host_to_acc(cfg.accelerator, 0, cfg.segments),
                              shm::acc_to_host(cfg.accelerator, 0, cfg.segments), os, cache,
                              static_cast<uint32_t>(cfg.accelerator), /*process=*/1);
  const uint64_t t0 = hal.cycles();
  std::deque<uint32_t> in_flight;
  for (uint64_t t = 0; t < cfg.transfers; ++t) {
    const uint32_t b = static_cast<uint32_t>(t % cfg.buffers);
    while (in_flight.size() >= cfg.window) {
      dma.wait(in_flight.front());
      in_flight.pop_front();
    }
    std::string error;
    auto tag = dma.put(cfg.buffer(b), cfg.slot(b), cfg.buffer_bytes, error);
    while (!tag && !in_flight.empty()) {
      // Every cached registration is in use (safety mode): let one transfer finish, retry.
      ++out.retries;
      dma.wait(in_flight.front());
      in_flight.pop_front();
      tag = dma.put(cfg.buffer(b), cfg.slot(b), cfg.buffer_bytes, error);
    }
    if (!tag) hal.fail("SLMPM put failed: " + error);
    in_flight.push_back(*tag);
  }
  while (!in_flight.empty()) {
    dma.wait(in_flight.front());
    in_flight.pop_front();
  }
  out.elapsed_us = static_cast<double>(hal.cycles() - t0) / hal.clock_hz() * 1e6;
  out.finished = true;
}

void accelerator_program(Hal& hal, const Config& cfg) {
  slmpm::AcceleratorDmaService service(hal, shm::host_to_acc(cfg.accelerator, 0, cfg.segments),
                                       shm::acc_to_host(cfg.accelerator, 0, cfg.segments),
                                       amap::kAccDmaEngine, kAccRequests, amap::host_via_pcie(0));
  service.serve(cfg.transfers);
}

}  // namespace hs::fw::transfer_demo
