#include "sw/apps/messages_demo.h"

#include <fmt/format.h>
#include <deque>
#include <random>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "sw/slmpm/shared_memory.h"
#include "sw/slmpm/slmpm.h"

namespace hs::fw::messages_demo {

namespace amap = hybrid::amap;
namespace shm = slmpm::shm;

namespace {
slmpm::Channel channel(int acc, uint32_t segments, bool ethernet) {
  return {shm::host_to_acc(acc, 0, segments, ethernet),
          shm::acc_to_host(acc, 0, segments, ethernet),
          ethernet ? slmpm::Fabric::Ethernet : slmpm::Fabric::Pcie, 0};
}
}  // namespace

void host_program(Hal& hal, const Config& cfg, os::OsModel& os, slmpm::RegistrationCache* cache,
                  Results& out) {
  Phase phase(hal, "SLMPM messages");
  slmpm::HostSlmpmConfig sc;
  sc.pcie = channel(cfg.accelerator, cfg.segments, false);
  if (cfg.ethernet) sc.ethernet = channel(cfg.accelerator, cfg.segments, true);
  sc.thresholds = cfg.thresholds;
  sc.accelerator = static_cast<uint32_t>(cfg.accelerator);
  slmpm::HostSlmpm slmpm(hal, sc, os, cache);
  std::mt19937_64 rng(cfg.seed);
  std::deque<uint32_t> in_flight;
  const uint64_t t0 = hal.cycles();
  for (uint64_t i = 0; i < cfg.messages; ++i) {
    const uint32_t b = static_cast<uint32_t>(i % kBuffers);
    // Sizes spread over orders of magnitude, multiples of 16 (DMA alignment).
    const uint32_t n = static_cast<uint32_t>(
        16 * std::max<uint64_t>(1, (uint64_t{1} << (rng() % 15)) * cfg.max_bytes / (16 << 14)));
    using Form = slmpm::AcceleratorId::Form;
    const Form forms[] = {Form::Global, Form::PcieId, Form::EthernetMac};
    Form form = cfg.ids == IdForms::Pcie     ? Form::PcieId
                : cfg.ids == IdForms::Mac    ? Form::EthernetMac
                : cfg.ids == IdForms::Global ? Form::Global
                                             : forms[rng() % (cfg.ethernet ? 3 : 2)];
    const slmpm::AcceleratorId id{form, static_cast<uint64_t>(cfg.accelerator)};
    const bool send = cfg.ops == Operations::Send || (cfg.ops == Operations::Mixed && rng() % 2);
    while (in_flight.size() >= cfg.window) {
      slmpm.wait(in_flight.front());
      in_flight.pop_front();
    }
    std::string error;
    // Tags are handed out in message order, starting at 1: the accelerator maps them back.
    auto tag = send ? slmpm.send(id, kHostSources + b * kBufferBytes, n, error)
                    : slmpm.put(id, kHostSources + b * kBufferBytes, kAccPutArea + b * kBufferBytes,
                                n, error);
    if (!tag) hal.fail("SLMPM message failed: " + error);
    in_flight.push_back(*tag);
  }
  while (!in_flight.empty()) {
    slmpm.wait(in_flight.front());
    in_flight.pop_front();
  }
  out.elapsed_us = static_cast<double>(hal.cycles() - t0) / hal.clock_hz() * 1e6;
  const auto& c = slmpm.counters();
  out.smt = c.smt;
  out.dma = c.dma;
  out.pcie = c.pcie;
  out.ethernet = c.ethernet;
  out.finished = true;
}

void accelerator_program(Hal& hal, const Config& cfg, Results& out) {
  slmpm::AcceleratorSlmpmConfig ac;
  ac.pcie_from_host = shm::host_to_acc(cfg.accelerator, 0, cfg.segments);
  ac.pcie_to_host = shm::acc_to_host(cfg.accelerator, 0, cfg.segments);
  if (cfg.ethernet) {
    ac.ethernet = std::make_pair(shm::host_to_acc(cfg.accelerator, 0, cfg.segments, true),
                                 shm::acc_to_host(cfg.accelerator, 0, cfg.segments, true));
  }
  ac.engine_regs = amap::kAccDmaEngine;
  ac.request_area = kAccRequests;
  ac.host_window = amap::host_via_pcie(0);
  ac.accelerator = static_cast<uint32_t>(cfg.accelerator);
  ac.receive_area = kAccReceive;
  ac.receive_slots = cfg.window + 1;  // more slots than messages in flight: none overwritten
  ac.receive_slot_bytes = static_cast<uint32_t>(kBufferBytes);
  slmpm::accelerator_serve(hal, ac, cfg.messages, [&](uint32_t tag, uint64_t dst, uint32_t n) {
    const uint32_t b = (tag - 1) % kBuffers;
    std::vector<uint8_t> got(n);
    hal.load(dst, got.data(), n);
    for (uint32_t i = 0; i < n; ++i) {
      if (got[i] != pattern(b, i)) {
        hal.fail(fmt::format("message {} byte {} is {:#x}, expected {:#x}", tag, i, got[i],
                             pattern(b, i)));
      }
    }
    ++out.delivered;
  });
  out.finished = true;
}

}  // namespace hs::fw::messages_demo
