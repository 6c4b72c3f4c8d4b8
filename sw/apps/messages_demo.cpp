#include "sw/apps/messages_demo.h"

#include <fmt/format.h>
#include <array>
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
slmpm::Channel channel(const Config& cfg, bool ethernet) {
  return {shm::host_to_acc(cfg.accelerator, 0, cfg.segments, ethernet),
          shm::acc_to_host(cfg.accelerator, 0, cfg.segments, ethernet),
          ethernet ? slmpm::Fabric::Ethernet : slmpm::Fabric::Pcie, 0,
          ethernet ? cfg.resend : slmpm::Resend{}};
}
}  // namespace

void host_program(Hal& hal, const Config& cfg, os::OsModel& os, slmpm::RegistrationCache* cache,
                  Results& out) {
  Phase phase(hal, "SLMPM messages");
  slmpm::HostSlmpmConfig sc;
  sc.pcie = channel(cfg, false);
  if (cfg.ethernet) sc.ethernet = channel(cfg, true);
  sc.thresholds = cfg.thresholds;
  sc.accelerator = static_cast<uint32_t>(cfg.accelerator);
  slmpm::HostSlmpm slmpm(hal, sc, os, cache);
  std::mt19937_64 rng(cfg.seed);
  struct Pending {
    uint32_t tag;
    bool get;
    uint32_t buffer, n;
  };
  std::deque<Pending> in_flight;
  // Waits for the oldest message; a get's bytes are then checked in host memory.
  auto complete_oldest = [&] {
    const Pending p = in_flight.front();
    in_flight.pop_front();
    slmpm.wait(p.tag);
    if (!p.get) return;
    std::vector<uint8_t> got(p.n);
    hal.load(kHostGetDest + p.buffer * kBufferBytes, got.data(), got.size());
    for (uint32_t i = 0; i < p.n; ++i) {
      if (got[i] != pattern(p.buffer, i)) hal.fail(fmt::format("get {} byte {} differs", p.tag, i));
    }
    ++out.gets;
  };
  using Form = slmpm::AcceleratorId::Form;
  const Form forms[] = {Form::Global, Form::PcieId, Form::EthernetMac};
  const Operations ops[] = {Operations::Send, Operations::Put, Operations::Get};
  const uint64_t t0 = hal.cycles();
  for (uint64_t i = 0; i < cfg.messages; ++i) {
    const uint32_t b = static_cast<uint32_t>(i % kBuffers);
    // Sizes spread over orders of magnitude, multiples of 16 (DMA alignment), or all the same
    // (the draw is made either way, so the other draws do not depend on it).
    const uint64_t spread =
        16 * std::max<uint64_t>(1, (uint64_t{1} << (rng() % 15)) * cfg.max_bytes / (16 << 14));
    const uint32_t n = cfg.fixed_size ? cfg.max_bytes : static_cast<uint32_t>(spread);
    const Form form = cfg.ids == IdForms::Pcie     ? Form::PcieId
                      : cfg.ids == IdForms::Mac    ? Form::EthernetMac
                      : cfg.ids == IdForms::Global ? Form::Global
                                                   : forms[rng() % (cfg.ethernet ? 3 : 2)];
    const slmpm::AcceleratorId id{form, static_cast<uint64_t>(cfg.accelerator)};
    const Operations op = cfg.ops == Operations::Mixed ? ops[rng() % 3] : cfg.ops;
    while (in_flight.size() >= cfg.window) complete_oldest();
    std::string error;
    // Tags are handed out in message order, starting at 1: the accelerator maps them back.
    const uint64_t src = kHostSources + b * kBufferBytes;
    std::optional<uint32_t> tag;
    switch (op) {
      case Operations::Send:
        tag = slmpm.send(id, src, n, error);
        break;
      case Operations::Put:
        tag = slmpm.put(id, src, kAccPutArea + b * kBufferBytes, n, error);
        break;
      default:
        tag = slmpm.get(id, kAccGetSources + b * kBufferBytes, kHostGetDest + b * kBufferBytes, n,
                        error);
        break;
    }
    if (!tag) hal.fail("SLMPM message failed: " + error);
    in_flight.push_back({*tag, op == Operations::Get, b, n});
    out.bytes += n;
  }
  while (!in_flight.empty()) complete_oldest();
  out.elapsed_us = static_cast<double>(hal.cycles() - t0) / hal.clock_hz() * 1e6;
  slmpm.close();
  out.resends = slmpm.resends();
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
    ac.ethernet_resend = cfg.resend;
  }
  ac.engine_regs = amap::kAccDmaEngine;
  ac.request_area = kAccRequests;
  ac.host_window = amap::host_via_pcie(0);
  ac.accelerator = static_cast<uint32_t>(cfg.accelerator);
  ac.receive_area = kAccReceive;
  ac.receive_slots = cfg.receive_slots;
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
