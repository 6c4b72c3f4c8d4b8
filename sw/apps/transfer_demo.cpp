#include "sw/apps/transfer_demo.h"

#include <deque>

#include "hw/hybrid/address_map.h"
#include "sw/slmpm/shared_memory.h"
#include "sw/slmpm/slmpm.h"

namespace hs::fw::transfer_demo {

namespace amap = hybrid::amap;
namespace shm = slmpm::shm;

void host_program(Hal& hal, const Config& cfg, os::OsModel& os, slmpm::RegistrationCache* cache,
                  Results& out) {
  Phase phase(hal, "DMA transfers");
  slmpm::HostSlmpmConfig sc;
  sc.pcie = {shm::host_to_acc(cfg.accelerator, 0, cfg.segments),
             shm::acc_to_host(cfg.accelerator, 0, cfg.segments),
             slmpm::Fabric::Pcie,
             0,
             {}};
  sc.accelerator = static_cast<uint32_t>(cfg.accelerator);
  slmpm::HostSlmpm dma(hal, sc, os, cache);
  const slmpm::AcceleratorId to{slmpm::AcceleratorId::Form::PcieId,
                                static_cast<uint64_t>(cfg.accelerator)};
  const uint64_t t0 = hal.cycles();
  std::deque<uint32_t> in_flight;
  for (uint64_t t = 0; t < cfg.transfers; ++t) {
    const uint32_t b = static_cast<uint32_t>(t % cfg.buffers);
    while (in_flight.size() >= cfg.window) {
      dma.wait(in_flight.front());
      in_flight.pop_front();
    }
    std::string error;
    auto tag = dma.put(to, cfg.buffer(b), cfg.slot(b), cfg.buffer_bytes, error);
    while (!tag && !in_flight.empty()) {
      // Every cached registration is in use (safety mode): let one transfer finish, retry.
      ++out.retries;
      dma.wait(in_flight.front());
      in_flight.pop_front();
      tag = dma.put(to, cfg.buffer(b), cfg.slot(b), cfg.buffer_bytes, error);
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
  slmpm::AcceleratorSlmpmConfig ac;
  ac.pcie_from_host = shm::host_to_acc(cfg.accelerator, 0, cfg.segments);
  ac.pcie_to_host = shm::acc_to_host(cfg.accelerator, 0, cfg.segments);
  ac.engine_regs = amap::kAccDmaEngine;
  ac.request_area = kAccRequests;
  ac.host_window = amap::host_via_pcie(0);
  ac.accelerator = static_cast<uint32_t>(cfg.accelerator);
  ac.receive_area = kAccReceive;
  slmpm::accelerator_serve(hal, ac, cfg.transfers);
}

}  // namespace hs::fw::transfer_demo
