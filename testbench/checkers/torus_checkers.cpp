#include "testbench/checkers/torus_checkers.h"

#include <fmt/format.h>

#include "hw/torus/network/link_faults.h"
#include "tlm/kernel/now.h"

namespace hs::checkers {

namespace dma = torus::dma;

namespace {
constexpr const char* kComponent = "torus checker";
Check& named(const char* name) {
  return CheckRegistry::instance().check(name);
}
}  // namespace

TorusCheckers::TorusCheckers(torus::TorusMachine& m)
    : m_(m),
      minimal_hop_(named(kMinimalHop)),
      delivered_(named(kDeliveredAtDestination)),
      exact_decrement_(named(kExactDecrement)),
      ascending_(named(kAscendingConsecutive)),
      descending_(named(kDescendingConsecutive)),
      no_overlap_(named(kNoOverlap)),
      put_after_get_(named(kPutAfterRemoteGet)),
      meet_at_zero_(named(kMeetAtZero)) {
  m.network->observe_hops(
      [this](const torus::Packet& p, int from, int dir) { on_hop(p, from, dir); });
  for (torus::ComputeNode* node : m.built_nodes()) {  // a parallel run: this partition's
    const int id = node->id();
    node->dma->observe_injection([this](const dma::InjectionEvent& e) { on_injection(e); });
    node->dma->observe_remote_get([this](const dma::RemoteGetEvent& e) { on_remote_get(e); });
    node->dma->observe_reception([this](const dma::ReceptionEvent& e) { on_reception(e); });
    node->dma->injection_counters().on_value_write(
        [this, id](uint32_t c, uint32_t v) { on_counter_write(id, c, v); });
  }
}

void TorusCheckers::on_hop(const torus::Packet& p, int from, int dir) {
  const torus::TorusShape& shape = m_.shape();
  const int to = shape.neighbour(from, dir);
  HS_EXPECT(minimal_hop_, to >= 0 && shape.hops(to, p.dest) == shape.hops(from, p.dest) - 1,
            kComponent,
            fmt::format("packet {} from {} to {} took link {} at {}: not a minimal hop",
                        torus::packet_label(shape, p), shape.name(p.src), shape.name(p.dest),
                        torus::dir_name(dir), shape.name(from)));
}

void TorusCheckers::on_remote_get(const dma::RemoteGetEvent& e) {
  remote_gets_[{e.node, e.fifo}] = hs::now().to_seconds() * 1e9;
}

void TorusCheckers::on_reception(const dma::ReceptionEvent& e) {
  const torus::TorusShape& shape = m_.shape();
  // A deposit packet also lands at every node its line route passes.
  const torus::Packet& p = *e.packet;
  HS_EXPECT(delivered_,
            p.dest == e.node || (p.deposit && shape.on_line_route(p.src, p.dest, e.node)),
            kComponent,
            fmt::format("packet {} for {} delivered at {}", torus::packet_label(shape, p),
                        shape.name(p.dest), shape.name(e.node)));
}

void TorusCheckers::on_counter_write(int node, uint32_t counter, uint32_t value) {
  Episode& ep = episodes_[{node, counter}];
  ep = Episode{};
  ep.start_value = ep.value = value;
}

void TorusCheckers::on_injection(const dma::InjectionEvent& e) {
  ++packets_;
  const dma::Descriptor& d = *e.descriptor;
  const uint32_t n = static_cast<uint32_t>(e.hi - e.lo);
  auto it = episodes_.find({e.node, d.inj_counter});
  if (it == episodes_.end()) return;  // counter never written by firmware (reset value)
  Episode& ep = it->second;
  const std::string where =
      fmt::format("node {} injection counter {}", m_.shape().name(e.node), d.inj_counter);
  HS_EXPECT(exact_decrement_, e.counter_after + n == ep.value, kComponent,
            fmt::format("{}: a {} B packet took the counter from {} to {} (must subtract "
                        "exactly its payload)",
                        where, n, ep.value, e.counter_after));
  ep.value = e.counter_after;
  if (d.flags & dma::kClaimFromCounter) check_split(ep, e, where);
}

void TorusCheckers::check_split(Episode& ep, const dma::InjectionEvent& e,
                                const std::string& where) {
  const dma::Descriptor& d = *e.descriptor;
  const double now_ns = hs::now().to_seconds() * 1e9;
  if (!ep.split) {
    ep.split = true;
    ep.src = d.src;
    ep.length = d.length;
  }
  const bool descending = d.flags & dma::kDescending;
  if (d.kind == dma::kDirectPut) {
    auto rg = remote_gets_.find({e.node, e.fifo});
    HS_EXPECT(put_after_get_, rg != remote_gets_.end(), kComponent,
              fmt::format("{}: direct-put packet left before any acknowledgement (remote get) "
                          "arrived",
                          where));
    if (ep.first_put_ns < 0) {
      ep.first_put_ns = now_ns;
      if (rg != remote_gets_.end()) ep.remote_get_ns = rg->second;
    }
  } else if (ep.first_data_ns < 0) {
    ep.first_data_ns = now_ns;
  }
  // The ascending stream takes consecutive ranges up from where it started, the descending
  // one down from where it started, and they never cross.
  if (descending) {
    if (!ep.any_high) ep.high = ep.high_start = e.hi;
    HS_EXPECT(descending_, e.hi == ep.high, kComponent,
              fmt::format("{}: descending packet [{:#x}, {:#x}) is not the next range down from "
                          "{:#x}",
                          where, e.lo, e.hi, ep.high));
    ep.high = e.lo;
    ep.any_high = true;
  } else {
    if (!ep.any_low) ep.low = ep.low_start = e.lo;
    HS_EXPECT(ascending_, e.lo == ep.low, kComponent,
              fmt::format("{}: ascending packet [{:#x}, {:#x}) is not the next range up from "
                          "{:#x}",
                          where, e.lo, e.hi, ep.low));
    ep.low = e.hi;
    ep.any_low = true;
  }
  if (ep.any_low && ep.any_high) {
    HS_EXPECT(no_overlap_, ep.low <= ep.high, kComponent,
              fmt::format("{}: the ascending and descending streams overlap ({:#x} > {:#x})", where,
                          ep.low, ep.high));
  }
  if (e.counter_after == 0) {
    if (ep.any_low && ep.any_high) {
      HS_EXPECT(meet_at_zero_, ep.low == ep.high, kComponent,
                fmt::format("{}: counter reached zero with [{:#x}, {:#x}) unsent", where, ep.low,
                            ep.high));
    }
    done_.push_back(
        SplitTransferRecord{e.node, d.inj_counter, ep.src, ep.length,
                            static_cast<uint32_t>(ep.any_low ? ep.low - ep.low_start : 0),
                            static_cast<uint32_t>(ep.any_high ? ep.high_start - ep.high : 0),
                            ep.first_put_ns, ep.remote_get_ns, ep.first_data_ns, now_ns});
  }
}

}  // namespace hs::checkers
