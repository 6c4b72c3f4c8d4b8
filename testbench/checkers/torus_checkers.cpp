#include "testbench/checkers/torus_checkers.h"

#include <fmt/format.h>

#include "tlm/check/checker.h"
#include "tlm/kernel/now.h"

namespace hs::checkers {

namespace dma = torus::dma;

TorusCheckers::TorusCheckers(torus::TorusMachine& m) : m_(m) {
  const torus::TorusShape& shape = m.shape();
  m.network->observe_hops([this, shape](const torus::Packet& p, int from, int dir) {
    const int to = shape.neighbour(from, dir);
    if (to < 0 || shape.hops(to, p.dest) != shape.hops(from, p.dest) - 1) {
      fail(fmt::format("packet {} from {} to {} took link {} at {}: not a minimal hop", p.id,
                       shape.name(p.src), shape.name(p.dest), torus::dir_name(dir),
                       shape.name(from)));
    }
  });
  for (auto& node : m.nodes) {
    const int id = node->id();
    node->dma->observe_injection([this](const dma::InjectionEvent& e) { on_injection(e); });
    node->dma->observe_remote_get([this](const dma::RemoteGetEvent& e) {
      remote_gets_[{e.node, e.fifo}] = hs::now().to_seconds() * 1e9;
    });
    node->dma->observe_reception([this, shape](const dma::ReceptionEvent& e) {
      if (e.packet->dest != e.node) {
        fail(fmt::format("packet {} for {} delivered at {}", e.packet->id,
                         shape.name(e.packet->dest), shape.name(e.node)));
      }
    });
    node->dma->injection_counters().on_value_write([this, id](uint32_t c, uint32_t v) {
      Episode& ep = episodes_[{id, c}];
      ep = Episode{};
      ep.start_value = ep.value = v;
    });
  }
}

void TorusCheckers::fail(const std::string& what) {
  CheckRegistry::instance().fail("torus checker", what);
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
  if (e.counter_after + n != ep.value) {
    fail(
        fmt::format("{}: a {} B packet took the counter from {} to {} (must subtract exactly "
                    "its payload)",
                    where, n, ep.value, e.counter_after));
  }
  ep.value = e.counter_after;
  if (!(d.flags & dma::kClaimFromCounter)) return;

  const double now_ns = hs::now().to_seconds() * 1e9;
  if (!ep.split) {
    ep.split = true;
    ep.src = d.src;
    ep.length = d.length;
  }
  const bool descending = d.flags & dma::kDescending;
  if (d.kind == dma::kDirectPut) {
    auto rg = remote_gets_.find({e.node, e.fifo});
    if (rg == remote_gets_.end()) {
      fail(
          fmt::format("{}: direct-put packet left before any acknowledgement (remote get) "
                      "arrived",
                      where));
    }
    if (ep.first_put_ns < 0) {
      ep.first_put_ns = now_ns;
      if (rg != remote_gets_.end()) ep.remote_get_ns = rg->second;
    }
  } else if (ep.first_data_ns < 0) {
    ep.first_data_ns = now_ns;
  }
  // Streams claiming from one counter: the ascending one takes consecutive ranges up from
  // where it started, the descending one down from where it started, and they never cross.
  if (descending) {
    if (!ep.any_high) ep.high = ep.high_start = e.hi;
    if (e.hi != ep.high) {
      fail(
          fmt::format("{}: descending packet [{:#x}, {:#x}) is not the next range down from "
                      "{:#x}",
                      where, e.lo, e.hi, ep.high));
    }
    ep.high = e.lo;
    ep.any_high = true;
  } else {
    if (!ep.any_low) ep.low = ep.low_start = e.lo;
    if (e.lo != ep.low) {
      fail(
          fmt::format("{}: ascending packet [{:#x}, {:#x}) is not the next range up from "
                      "{:#x}",
                      where, e.lo, e.hi, ep.low));
    }
    ep.low = e.hi;
    ep.any_low = true;
  }
  if (ep.any_low && ep.any_high && ep.low > ep.high) {
    fail(fmt::format("{}: the ascending and descending streams overlap ({:#x} > {:#x})", where,
                     ep.low, ep.high));
  }
  if (e.counter_after == 0) {
    if (ep.any_low && ep.any_high && ep.low != ep.high) {
      fail(fmt::format("{}: counter reached zero with [{:#x}, {:#x}) unsent", where, ep.low,
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
