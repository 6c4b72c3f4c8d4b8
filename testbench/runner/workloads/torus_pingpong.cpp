// Ping-pong between two torus nodes at a given distance (sw/apps/torus_pingpong.h).
#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <memory>
#include <random>

#include "hw/torus/dma/torus_dma_interface.h"
#include "sw/apps/torus_pingpong.h"
#include "testbench/runner/torus_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

int node_at_distance(const torus::TorusShape& s, int hops) {
  torus::Coord c{{0, 0, 0}};
  int left = hops;
  for (int d = 0; d < 3 && left > 0; ++d) {
    const int reach = s.wrap() ? s.size(d) / 2 : s.size(d) - 1;
    const int step = std::min(left, reach);
    c.v[d] = step;
    left -= step;
  }
  if (left > 0) return -1;
  return s.node(c);
}

torus::ComputeNode& first_local_node(TorusModel& m) {
  return m.machine.node(m.machine.partition->local_nodes().front());
}

void require_dma_fifos(TorusModel& m, int injection, int reception, const std::string& who) {
  const auto& dma = first_local_node(m).dma->config();
  if (dma.injection_fifos < injection) {
    throw InputError(fmt::format("parameter 'torus.node.dma.injection_fifos' = {}: {} programs {}",
                                 dma.injection_fifos, who, injection));
  }
  if (dma.reception_fifos < reception) {
    throw InputError(fmt::format("parameter 'torus.node.dma.reception_fifos' = {}: {} programs {}",
                                 dma.reception_fifos, who, reception));
  }
  // A memory-FIFO packet lands in one reception FIFO slot behind its entry header.
  const auto& net = m.machine.network->config();
  constexpr uint32_t kSlotPayload = torus::dma::kFifoSlot - sizeof(torus::dma::FifoEntryHeader);
  if (reception > 0 && net.max_payload() > kSlotPayload) {
    throw InputError(fmt::format(
        "parameter 'torus.network.header_bytes' = {}: packets then carry up to {} B, more than "
        "the {} B a reception FIFO slot holds behind its entry header, and {} receives by "
        "memory FIFO",
        net.header_bytes, net.max_payload(), kSlotPayload, who));
  }
}

HYBRIDSIM_WORKLOAD(torus_pingpong, TorusModel,
                   "ping-pong between two torus nodes: eager, rendezvous or the split transfer") {
  m.results_declared.declare({
      {"protocol", "", "the messaging protocol: eager, rendezvous or split"},
      {"bytes", "B", "message size"},
      {"hops", "hops", "links between the two nodes"},
      {"node_b", "", "the second node's coordinates"},
      {"one_way_latency_ns", "ns", "half the mean round trip over the timed iterations"},
      {"bandwidth_MBps", "MB/s", "message bytes per one-way latency"},
      {"round_trips_ns", "ns", "each timed iteration's round trip"},
      {"data_verified", "", "both nodes received exactly what the other sent"},
      {"target_bytes_copied_per_message", "B",
       "bytes the receiving core copied per message (0: the DMA placed everything)"},
      {"core_cycles/node_a", "cycles", "cycles node A's core spent computing"},
      {"core_cycles/node_b", "cycles", "cycles node B's core spent computing"},
      {"last_message_at_b/bytes", "B", "the last message's size at node B"},
      {"last_message_at_b/direct_put_bytes", "B", "its bytes placed by direct put"},
      {"last_message_at_b/memory_fifo_bytes", "B", "its bytes received through the memory FIFO"},
      {"last_split_transfer/node", "", "the node that received the last split transfer"},
      {"last_split_transfer/first_data_ns", "ns", "when its first data arrived"},
      {"last_split_transfer/first_direct_put_ns", "ns", "when its first direct put arrived"},
      {"last_split_transfer/acknowledgement_ns", "ns", "when its acknowledgement was sent"},
      {"last_split_transfer/done_ns", "ns", "when it completed"},
      {"last_split_transfer/direct_put_bytes", "B", "its bytes placed by direct put"},
      {"last_split_transfer/memory_fifo_bytes", "B", "its bytes received through the memory FIFO"},
  });
  ParamScope p("workload");
  fw::pingpong::Config cfg;
  const auto& shape = m.machine.shape();
  const auto hops = static_cast<int>(p.integer(
      "hops", 1, "hops", "distance from node A (node 0) to node B", Range::between(1, 96)));
  cfg.bytes = static_cast<uint32_t>(
      p.integer("bytes", 1024, "B", "message size", Range::between(1, 16 << 20)));
  cfg.recv_bytes = static_cast<uint32_t>(
      p.integer("receive_bytes", 0, "B",
                "size each receive is posted with; 0: the message size (a larger receive "
                "completes with the message's length, a smaller one is an error)",
                Range::between(0, 16 << 20)));
  const std::string proto = p.choice("protocol", "auto",
                                     "eager, rendezvous, split, or auto (eager up to "
                                     "workload.eager_limit, then workload.large_protocol)",
                                     {"eager", "rendezvous", "split", "auto"});
  cfg.protocol = fw::dcmf::parse_protocol(proto);
  cfg.iterations = static_cast<int>(
      p.integer("iterations", 3, "", "timed round trips", Range::between(1, 100000)));
  cfg.warmup = static_cast<int>(
      p.integer("warmup", 1, "", "untimed round trips first", Range::between(0, 1000)));
  fw::dcmf::MessengerConfig mcfg;
  mcfg.eager_limit =
      static_cast<uint32_t>(p.integer("eager_limit", mcfg.eager_limit, "B",
                                      "auto: largest eager message", Range::between(0, 1 << 24)));
  mcfg.large = fw::dcmf::parse_protocol(p.choice(
      "large_protocol", "split", "auto: protocol above the eager limit", {"rendezvous", "split"}));
  mcfg.interrupts = p.flag("interrupts", true, "wait for completions by interrupt (false: poll)");
  mcfg.post_cycles = static_cast<uint64_t>(
      p.integer("post_cycles", static_cast<int64_t>(mcfg.post_cycles), "cycles",
                "core cycles to build descriptors and post a send", Range::between(0, 1e6)));
  mcfg.rts_cycles = static_cast<uint64_t>(
      p.integer("rts_cycles", static_cast<int64_t>(mcfg.rts_cycles), "cycles",
                "target core cycles to handle an RTS", Range::between(0, 1e6)));
  mcfg.entry_cycles = static_cast<uint64_t>(
      p.integer("entry_cycles", static_cast<int64_t>(mcfg.entry_cycles), "cycles",
                "core cycles per reception-FIFO entry", Range::between(0, 1e6)));
  mcfg.copy_bytes_per_cycle = static_cast<uint32_t>(
      p.integer("copy_bytes_per_cycle", mcfg.copy_bytes_per_cycle, "B/cycle",
                "target core copy rate for memory-FIFO payload", Range::between(1, 64)));
  const auto& dma = first_local_node(m).dma->config();
  mcfg.counter_groups = static_cast<int>(dma.injection_bank.groups);
  mcfg.counters_per_group = static_cast<int>(dma.injection_bank.per_group);

  cfg.a = 0;
  cfg.b = node_at_distance(shape, hops);
  if (cfg.b < 0) {
    int diameter = 0;
    for (int d = 0; d < 3; ++d) diameter += shape.wrap() ? shape.size(d) / 2 : shape.size(d) - 1;
    throw InputError(
        fmt::format("workload.hops = {}: the farthest node of a {}x{}x{} {} is {} "
                    "hops away",
                    hops, shape.size(0), shape.size(1), shape.size(2),
                    shape.wrap() ? "torus" : "mesh", diameter));
  }
  // The messaging layer's FIFOs, and its memory up to the receive buffer (sw/dcmf/messenger.h,
  // sw/apps/torus_pingpong.h).
  namespace layout = fw::dcmf::layout;
  require_dma_fifos(m, fw::dcmf::kControlFifo + 1, fw::dcmf::kReceptionFifo + 1,
                    "the messaging layer");
  static_assert(
      layout::kScratch + layout::kScratchSlots * layout::kScratchSlot <= layout::kAppMemory,
      "the layer's FIFOs and scratch lie below the application's buffers");
  first_local_node(m).dram->require(
      std::max(cfg.recv_buf, cfg.send_buf) + cfg.bytes,
      fmt::format("the messaging layer's FIFOs and the send and receive buffers "
                  "(workload.bytes at {:#x} and {:#x})",
                  cfg.send_buf, cfg.recv_buf));
  // Each node's send buffer holds a seeded pattern; after the run each receive buffer must
  // hold the other node's pattern.
  std::vector<uint8_t> pattern_a(cfg.bytes), pattern_b(cfg.bytes);
  std::mt19937_64 rng(seed);
  for (auto& v : pattern_a) v = static_cast<uint8_t>(rng());
  for (auto& v : pattern_b) v = static_cast<uint8_t>(rng());
  auto out_a = std::make_shared<fw::pingpong::Results>();
  auto out_b = std::make_shared<fw::pingpong::Results>();
  m.keep.push_back(out_a);
  m.keep.push_back(out_b);
  const torus::TorusShape sh = shape;
  // Each node is set up, run and read where it lives (a parallel run: in its partition only).
  const torus::Partition& part = *m.machine.partition;
  if (part.local(cfg.a)) {
    torus::ComputeNode& a = m.machine.node(cfg.a);
    a.dram->poke(cfg.send_buf, pattern_a.data(), cfg.bytes);
    a.core_list[0]->set_firmware(
        [cfg, mcfg, sh, out_a](fw::Hal& hal) { fw::pingpong::node_a(hal, cfg, mcfg, sh, *out_a); });
  }
  if (part.local(cfg.b)) {
    torus::ComputeNode& b = m.machine.node(cfg.b);
    b.dram->poke(cfg.send_buf, pattern_b.data(), cfg.bytes);
    b.core_list[0]->set_firmware(
        [cfg, mcfg, sh, out_b](fw::Hal& hal) { fw::pingpong::node_b(hal, cfg, mcfg, sh, *out_b); });
  }
  const double core_hz = first_local_node(m).core_list[0]->clock_hz();

  // What the run left at node A (side 0) and node B (side 1), read where the node lives; a
  // parallel run's reporting partition adds the sides the others read.
  struct Side {
    bool read = false;
    bool data_ok = false;  // its receive buffer holds the other node's pattern
    uint64_t core_cycles = 0;
    fw::pingpong::Results out;
    std::vector<checkers::SplitTransferRecord> splits;  // the split transfers it sent
  };
  TorusModel* model = &m;
  const auto read_side = [model, cfg, pattern_a, pattern_b, out_a, out_b](int side) {
    Side r;
    const int node = side == 0 ? cfg.a : cfg.b;
    if (!model->machine.partition->local(node)) return r;
    torus::ComputeNode& n = model->machine.node(node);
    std::vector<uint8_t> got(cfg.bytes);
    n.dram->peek(cfg.recv_buf, got.data(), cfg.bytes);
    r.read = true;
    r.data_ok = got == (side == 0 ? pattern_b : pattern_a);
    r.core_cycles = n.core_list[0]->compute_cycles();
    r.out = side == 0 ? *out_a : *out_b;
    for (const auto& t : model->checkers.split_transfers()) {
      if (t.node == node) r.splits.push_back(t);
    }
    return r;
  };
  auto merged = std::make_shared<std::array<Side, 2>>();
  m.keep.push_back(merged);
  m.save_workload = [read_side] {
    ByteWriter w;
    for (int side = 0; side < 2; ++side) {
      const Side r = read_side(side);
      w.put<uint8_t>(r.read);
      if (!r.read) continue;
      w.put<uint8_t>(r.data_ok);
      w.put(r.core_cycles);
      w.put_vector(r.out.round_trip_cycles);
      w.put(r.out.last_at_b);
      w.put(r.out.a_bytes_copied);
      w.put(r.out.b_bytes_copied);
      w.put_vector(r.splits);
    }
    return w.take();
  };
  m.merge_workload = [merged](const Bytes& b) {
    ByteReader in(b);
    for (Side& r : *merged) {
      if (in.get<uint8_t>() == 0) continue;
      r.read = true;
      r.data_ok = in.get<uint8_t>() != 0;
      r.core_cycles = in.get<uint64_t>();
      r.out.round_trip_cycles = in.get_vector<uint64_t>();
      r.out.last_at_b = in.get<fw::dcmf::ReceiveInfo>();
      r.out.a_bytes_copied = in.get<uint64_t>();
      r.out.b_bytes_copied = in.get<uint64_t>();
      r.splits = in.get_vector<checkers::SplitTransferRecord>();
    }
  };
  m.results = [=] {
    std::array<Side, 2> sides{read_side(0), read_side(1)};
    for (int i = 0; i < 2; ++i) {
      if (!sides[i].read) sides[i] = (*merged)[i];
    }
    const Side& a = sides[0];
    const Side& b = sides[1];
    Json r;
    const bool b_ok = b.data_ok;
    const bool a_ok = a.data_ok;
    CheckRegistry::instance().check_finished_work(
        "DCMF ping-pong: received data equals what was sent", a_ok && b_ok, "pingpong", [&] {
          return fmt::format(
              "received data differs from what was sent (at node A: {}, at "
              "node B: {})",
              a_ok ? "ok" : "differs", b_ok ? "ok" : "differs");
        });
    Json rtts = Json::array();
    double sum = 0;
    for (uint64_t c : a.out.round_trip_cycles) {
      rtts.push_back(c / core_hz * 1e9);
      sum += c / core_hz * 1e9;
    }
    const double one_way =
        a.out.round_trip_cycles.empty() ? 0 : sum / a.out.round_trip_cycles.size() / 2;
    const int messages = cfg.warmup + cfg.iterations;
    r["protocol"] = fw::dcmf::protocol_name(cfg.protocol);
    r["bytes"] = cfg.bytes;
    r["hops"] = hops;
    r["node_b"] = sh.name(cfg.b);
    r["round_trips_ns"] = rtts;
    r["one_way_latency_ns"] = one_way;
    r["bandwidth_MBps"] = one_way > 0 ? cfg.bytes / one_way * 1e3 : 0;
    r["data_verified"] = a_ok && b_ok;
    r["last_message_at_b"] = {{"bytes", b.out.last_at_b.bytes},
                              {"memory_fifo_bytes", b.out.last_at_b.memory_fifo_bytes},
                              {"direct_put_bytes", b.out.last_at_b.direct_put_bytes}};
    r["target_bytes_copied_per_message"] = static_cast<double>(b.out.b_bytes_copied) / messages;
    r["core_cycles"] = {{"node_a", a.core_cycles}, {"node_b", b.core_cycles}};
    // The last to finish of both nodes' split transfers (the nodes take turns: two never
    // finish at one instant).
    const checkers::SplitTransferRecord* last = nullptr;
    for (const Side* side : {&a, &b}) {
      for (const auto& t : side->splits) {
        if (!last || t.done_ns >= last->done_ns) last = &t;
      }
    }
    if (last) {
      const auto& s = *last;
      r["last_split_transfer"] = {{"node", sh.name(s.node)},
                                  {"memory_fifo_bytes", s.memory_fifo_bytes},
                                  {"direct_put_bytes", s.direct_put_bytes},
                                  {"first_data_ns", s.first_data_ns},
                                  {"acknowledgement_ns", s.remote_get_ns},
                                  {"first_direct_put_ns", s.first_put_ns},
                                  {"done_ns", s.done_ns}};
    }
    return r;
  };
}

}  // namespace hs::runner
