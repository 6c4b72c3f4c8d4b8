#include "hw/torus/network/network_trace.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hw/torus/network/link_faults.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::torus {

namespace {
sc_core::sc_time at(uint64_t ps) {
  return sc_core::sc_time::from_value(ps);
}
}  // namespace

NetworkTrace::NetworkTrace(const std::string& network_name, const TorusShape& shape, int vcs,
                           int inj_queues, int vc_buffer_chunks)
    : on_(TransactionTrace::instance().enabled()),
      shape_(shape),
      vcs_(vcs),
      inj_queues_(inj_queues),
      buffer_chunks_(vc_buffer_chunks) {
  if (!on_) return;
  const auto n = static_cast<size_t>(shape.nodes());
  for (size_t node = 0; node < n; ++node) {
    prefix_.push_back(network_name + "." + shape.name(static_cast<int>(node)));
    TransactionTrace::instance().process(prefix_.back());
  }
  link_tracks_.assign(n * kDirs, kUnmade);
  vc_tracks_.assign(n * kDirs * static_cast<size_t>(vcs), kUnmade);
  injection_tracks_.assign(n * static_cast<size_t>(inj_queues), kUnmade);
}

void NetworkTrace::name_node(int node, const std::string& name) {
  if (!on_) return;
  prefix_[static_cast<size_t>(node)] = name;
  TransactionTrace::instance().process(name, fmt::format("{} {}", name, shape_.name(node)));
}

int NetworkTrace::made(int& slot, const std::string& name, const char* unit) {
  if (slot == kUnmade) {
    auto& trace = TransactionTrace::instance();
    slot = unit ? trace.counter(name, unit) : trace.track(name);
  }
  return slot;
}

std::string NetworkTrace::vc_name(int vc) const {
  if (vc == 0) return "escape";
  if (vc == vcs_ - 1) return "high";
  return fmt::format("dynamic{}", vc);
}

int NetworkTrace::link_track(int node, int dir) {
  return made(link_tracks_[static_cast<size_t>(node) * kDirs + dir],
              fmt::format("{}.link {}", prefix_[static_cast<size_t>(node)], dir_name(dir)),
              nullptr);
}

void NetworkTrace::hop(const Packet& p, int node, int dir, int vc, uint64_t start_ps,
                       uint64_t end_ps) {
  const int track = link_track(node, dir);
  if (track < 0) return;
  const nlohmann::json args = {{"packet", packet_label(shape_, p)},
                               {"src", shape_.name(p.src)},
                               {"dest", shape_.name(p.dest)},
                               {"to", shape_.name(shape_.neighbour(node, dir))},
                               {"vc", vc_name(vc)},
                               {"chunks", p.chunks},
                               {"kind", kind_name(p.kind)},
                               {"hop", p.hops + 1}};
  TransactionTrace::instance().span(track, "packet", at(start_ps), at(end_ps), &args);
}

void NetworkTrace::crc_error(const Packet& p, int node, int dir, uint64_t start_ps, uint64_t end_ps,
                             uint64_t resend_ps) {
  const int track = link_track(node, dir);
  if (track < 0) return;
  const nlohmann::json args = {{"packet", packet_label(shape_, p)},
                               {"src", shape_.name(p.src)},
                               {"dest", shape_.name(p.dest)},
                               {"corrupted_copy_end_ns", static_cast<double>(end_ps) / 1e3},
                               {"chunks", p.chunks}};
  TransactionTrace::instance().span(track, "CRC error", at(start_ps), at(resend_ps), &args);
}

void NetworkTrace::link_failed(int node, int dir, uint64_t at_ps) {
  const int track = link_track(node, dir);
  if (track >= 0) TransactionTrace::instance().instant(track, "link failed", at(at_ps));
}

void NetworkTrace::tokens(int node, int dir, int vc, int tokens, uint64_t at_ps) {
  const int track = made(vc_tracks_[(static_cast<size_t>(node) * kDirs + dir) * vcs_ + vc],
                         fmt::format("{}.link {} {} buffer", prefix_[static_cast<size_t>(node)],
                                     dir_name(dir), vc_name(vc)),
                         "chunks");
  TransactionTrace::instance().count(track, at(at_ps), buffer_chunks_ - tokens);
}

void NetworkTrace::injection(int node, int queue, uint32_t packets, uint64_t at_ps) {
  const int track =
      made(injection_tracks_[static_cast<size_t>(node) * inj_queues_ + queue],
           fmt::format("{}.router injection queue {}{}", prefix_[static_cast<size_t>(node)], queue,
                       queue == inj_queues_ - 1 ? " (high)" : ""),
           "packets");
  TransactionTrace::instance().count(track, at(at_ps), packets);
}

}  // namespace hs::torus
