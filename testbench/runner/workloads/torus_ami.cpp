// A stream of AMI messages (sw/apps/ami_stream.h) between node 0 and a node `hops` away over
// the torus DMA, or (hops = 0) between cores 0 and 1 of node 0 over the shared-memory adapter,
// with the AMI checker armed. In a parallel run each endpoint runs, and is read, in its node's
// partition; the checker sees both through the partitions' logs (ami_checker.h).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "sw/ami/shm_adapter.h"
#include "sw/ami/torus_adapter.h"
#include "sw/apps/ami_stream.h"
#include "testbench/checkers/ami_checker.h"
#include "testbench/runner/torus_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {

namespace ami = fw::ami;

ami::AmiConfig declare_ami(double core_hz) {
  ParamScope p("workload.ami");
  ami::AmiConfig c;
  const std::string proto =
      p.choice("protocol", "B",
               "A (discard and pull), B (two ends and CTS), C (STOP names the buffer), eager "
               "(baseline: eager limit and credits), rendezvous (baseline)",
               {"A", "B", "C", "eager", "rendezvous"});
  ami::parse_protocol(proto.c_str(), c.protocol);
  c.eager.first = static_cast<uint32_t>(p.integer("eager_packet", c.eager.first, "B",
                                                  "first eager packet after the header packet",
                                                  Range::between(32, 1 << 24)));
  c.eager.growth = static_cast<uint32_t>(p.integer(
      "eager_growth", 1, "x", "each eager packet this many times the last (1: equal sizes)",
      Range::between(1, 16)));
  c.eager.max = static_cast<uint32_t>(p.integer(
      "eager_packet_max", c.eager.max, "B", "largest eager packet", Range::between(32, 1 << 24)));
  c.temp_bytes = static_cast<uint32_t>(p.integer(
      "temp_bytes", c.temp_bytes, "B", "AMI receive buffer (temporary space for unexpected data)",
      Range::between(0, 64 << 20)));
  c.bottom_share =
      p.real("bottom_share", c.bottom_share, "",
             "B: share of the undelivered rest the bottom GETs cover", Range::between(0, 1));
  c.bottom_first = static_cast<uint32_t>(p.integer(
      "bottom_get", c.bottom_first, "B", "B: first bottom GET", Range::between(32, 1 << 24)));
  c.bottom_growth = static_cast<uint32_t>(p.integer("bottom_growth", c.bottom_growth, "x",
                                                    "B: each bottom GET this many times the last",
                                                    Range::between(1, 16)));
  c.eager_limit = static_cast<uint32_t>(p.integer("eager_limit", c.eager_limit, "B",
                                                  "eager baseline: larger messages go rendezvous",
                                                  Range::between(0, 1 << 24)));
  c.stop.on_unexpected = p.flag("stop.unexpected", c.stop.on_unexpected,
                                "STOP every message that finds no RECEIVE posted");
  c.stop.on_temp_space = p.flag("stop.temp_space", c.stop.on_temp_space,
                                "STOP an unexpected message the free temporary space cannot hold");
  c.stop.adapter_fill =
      p.real("stop.adapter_fill", c.stop.adapter_fill, "",
             "STOP when the adapter receive buffer is fuller than this (above 1: never)",
             Range::between(0, 2));
  c.stop.link_utilisation =
      p.real("stop.link_utilisation", c.stop.link_utilisation, "",
             "STOP when received bandwidth over the window exceeds this share of a link "
             "(above 1: never)",
             Range::between(0, 2));
  c.stop.processor_utilisation =
      p.real("stop.processor_utilisation", c.stop.processor_utilisation, "",
             "STOP when the core's busy share (application and AMI, not idle) over the window "
             "exceeds this (above 1: never)",
             Range::between(0, 2));
  const double window_ns =
      p.real("stop.window", 20000, "ns", "averaging window of the utilisation conditions",
             Range::between(100, 1e9));
  c.stop.window_cycles = static_cast<uint64_t>(window_ns * core_hz / 1e9);
  c.entry_cycles = static_cast<uint64_t>(p.integer("entry_cycles", c.entry_cycles, "cycles",
                                                   "core cycles to dispatch a received packet",
                                                   Range::between(0, 1e6)));
  c.copy_bytes_per_cycle = static_cast<uint32_t>(p.integer(
      "copy_bytes_per_cycle", c.copy_bytes_per_cycle, "B/cycle",
      "core copy rate (eager payload, staging, shared-memory transfers)", Range::between(1, 64)));
  return c;
}

}  // namespace

HYBRIDSIM_WORKLOAD(torus_ami, TorusModel,
                   "AMI eager SEND the receiver can STOP, between two torus nodes") {
  m.results_declared.declare({
      {"protocol", "", "A, B, C or a baseline"},
      {"receive", "", "when the receiver posted its RECEIVE"},
      {"bytes", "B", "message size"},
      {"messages", "messages", "messages sent"},
      {"adapter", "", "torus or shared_memory"},
      {"receiver", "", "the receiving node"},
      {"data_verified", "", "every message was received intact"},
      {"completion_ns", "ns", "each message's completion time (up to 64 messages)"},
      {"send_done_ns", "ns", "each message's send completion (up to 64 messages)"},
      {"per_message/*/bytes", "B", "the message's size as received"},
      {"per_message/*/stop", "", "why the receiver stopped the eager stream"},
      {"per_message/*/eager_bytes", "B", "bytes that arrived eagerly and were kept"},
      {"per_message/*/staged_bytes", "B", "bytes staged in temporary space"},
      {"per_message/*/rdma_bytes", "B", "bytes moved by RDMA"},
      {"per_message/*/receive_posted_ns", "ns", "when the RECEIVE was posted"},
      {"mean_completion_ns", "ns", "send to receive completion, mean"},
      {"max_completion_ns", "ns", "send to receive completion, the largest"},
      {"stops/*", "messages", "STOPs sent for this reason"},
      {"eager_bytes_kept", "B", "eager bytes kept"},
      {"eager_bytes_discarded", "B", "eager bytes that crossed the network and were thrown away"},
      {"staged_bytes", "B", "bytes copied into temporary space and out again"},
      {"rdma_bytes", "B", "bytes moved by RDMA"},
      {"bytes_moved_twice", "B", "discarded eager bytes plus staged bytes"},
      {"temp_peak_bytes", "B", "the receiver's peak use of temporary space"},
      {"temp_bytes", "B", "the receiver's temporary space"},
      {"sender/descriptors", "descriptors", "DMA descriptors the sender posted"},
      {"sender/eager_bytes_posted", "B", "eager bytes the sender posted"},
      {"sender/ctss", "messages", "clear-to-send messages the sender received"},
      {"sender/acks", "messages", "acknowledgements the sender received"},
      {"sender/credit_waits", "waits", "times the sender waited for credits"},
      {"sender/callbacks", "calls", "completion callbacks the sender ran"},
      {"receiver_descriptors", "descriptors", "DMA descriptors the receiver posted"},
      {"protocol_trace/*/msg", "", "message number"},
      {"protocol_trace/*/size", "B", "message size"},
      {"protocol_trace/*/stop", "", "why the eager stream was stopped"},
      {"protocol_trace/*/eager_at_stop", "B", "eager bytes received when the STOP was sent"},
      {"protocol_trace/*/cts", "", "a clear-to-send was sent"},
      {"protocol_trace/*/bottom_lo", "B", "where the bottom GETs began"},
      {"protocol_trace/*/final", "B", "the final GET's byte range"},
      {"protocol_trace/*/put", "B", "the PUT's byte range"},
      {"protocol_trace/*/eager_posted", "B", "eager bytes posted"},
      {"protocol_trace/*/discarded", "B", "eager bytes discarded"},
      {"protocol_trace/*/committed_by_copy", "B", "bytes committed by copying"},
      {"protocol_trace/*/committed_by_rdma", "B", "bytes committed by RDMA"},
      {"protocol_trace/*/gets", "GETs", "GETs issued"},
      {"protocol_trace/*/stop_ns", "ns", "when the STOP was sent"},
      {"protocol_trace/*/stop_processed_ns", "ns", "when the sender processed it"},
      {"protocol_trace/*/first_bottom_get_ns", "ns", "the first bottom GET"},
      {"protocol_trace/*/first_rdma_ns", "ns", "the first RDMA"},
      {"protocol_trace/*/last_eager_ns", "ns", "the last eager packet"},
      {"protocol_trace/*/done_ns", "ns", "completion"},
      {"protocol_trace/*/acked", "", "acknowledged"},
      {"protocol_trace/*/send_done", "", "the send completed"},
      {"protocol_trace/*/receive_done", "", "the receive completed"},
      {"checker_violations", "violations", "violations the AMI checker found"},
  });
  ParamScope p("workload");
  const auto& shape = m.machine.shape();
  const auto hops = static_cast<int>(
      p.integer("hops", 1, "hops",
                "distance from the sender (node 0) to the receiver; 0: cores 0 and 1 of node 0 "
                "through the shared-memory adapter",
                Range::between(0, 96)));
  fw::ami_stream::Config cfg;
  cfg.seed = seed;
  cfg.bytes = static_cast<uint32_t>(p.integer("bytes", 65536, "B",
                                              "message size (random_sizes: the largest)",
                                              Range::between(1, 16 << 20)));
  cfg.messages =
      static_cast<int>(p.integer("messages", 4, "", "messages sent", Range::between(1, 100000)));
  cfg.random_sizes = p.flag("random_sizes", false, "message sizes log-uniform in [32, bytes]");
  const std::string ready = p.choice(
      "receive", "early",
      "when the receiver posts each RECEIVE: early (before the message), late (when its SEND "
      "arrives), delayed (workload.receive_delay after that), random (per message)",
      {"early", "late", "delayed", "random"});
  fw::ami_stream::parse_readiness(ready, cfg.readiness);
  // Every node is built alike (torus.node.*): this process's first stands for them all.
  torus::ComputeNode& node0 = first_local_node(m);
  const double core_hz = node0.core_list[0]->clock_hz();
  const double delay_ns = p.real("receive_delay", 20000, "ns",
                                 "delayed: RECEIVE this long after the SEND arrives; "
                                 "random: up to this",
                                 Range::between(0, 1e9));
  cfg.delay_cycles = static_cast<uint64_t>(delay_ns * core_hz / 1e9);
  cfg.window = static_cast<int>(
      p.integer("window", 1, "", "messages in flight at once", Range::between(1, 64)));
  cfg.receiver_load =
      p.real("receiver_load", 0, "", "share of the receiver's time its application computes",
             Range::between(0, 0.99));
  ami::AmiConfig acfg = declare_ami(core_hz);
  const auto slots =
      static_cast<int>(ParamScope("workload.ami")
                           .integer("slots", 16, "descriptors", "injection FIFO slots (N)",
                                    Range::between(1, 1024)));

  // Endpoints and adapters. The checker watches them live in a sequential run; a parallel run's
  // partitions log what their endpoints report, replayed into it at each window's end.
  const torus::Partition& part = *m.machine.partition;
  fw::ami_stream::AdapterFactory make_s, make_r;
  uint32_t payload = 0;  // bytes an adapter packet carries: the temporary space's block
  auto checker = std::make_shared<checkers::AmiChecker>();
  m.keep.push_back(checker);
  checkers::AmiChecker* ck = checker.get();
  std::shared_ptr<checkers::AmiTraceLog> log;
  if (!part.whole()) {
    log = std::make_shared<checkers::AmiTraceLog>();
    m.keep.push_back(log);
    m.replay_each_window(log, checker);
  }
  fw::ami::AmiTrace* trace = log ? &log->trace() : ck;
  if (hops == 0) {
    if (node0.core_list.size() < 2) {
      throw InputError(
          "workload.hops = 0 puts both endpoints on node 0 and needs two cores "
          "(torus.node.cores >= 2)");
    }
    cfg.sender = 0;
    cfg.receiver = 1;
    fw::ami::ShmAdapterConfig sc;
    sc.slots = slots;
    sc.copy_bytes_per_cycle = acfg.copy_bytes_per_cycle;
    payload = fw::ami::ShmAdapter::kEntryBytes - fw::ami::ShmAdapter::kEntryHeader;
    make_s = make_r = [sc, trace](fw::Hal& hal) {
      auto a = std::make_unique<fw::ami::ShmAdapter>(hal, sc, hal.core_index());
      a->set_trace(trace);
      return std::unique_ptr<fw::ami::Adapter>(std::move(a));
    };
  } else {
    const int b = node_at_distance(shape, hops);
    if (b < 0) {
      throw InputError(fmt::format("workload.hops = {}: farther than any node of the {}x{}x{} {}",
                                   hops, shape.size(0), shape.size(1), shape.size(2),
                                   shape.wrap() ? "torus" : "mesh"));
    }
    cfg.sender = 0;
    cfg.receiver = b;
    const auto& dma = node0.dma->config();
    fw::ami::TorusAdapterConfig tc;
    tc.slots = slots;
    tc.counter_groups = static_cast<int>(dma.injection_bank.groups);
    tc.counters_per_group = static_cast<int>(dma.injection_bank.per_group);
    const auto& net = m.machine.network->config();
    tc.max_payload = net.max_payload();
    payload = tc.max_payload;
    tc.link_bytes_per_second = net.link_bytes_per_second * net.payload_efficiency(256);
    const torus::TorusShape sh = shape;
    auto make_for = [tc, sh](int node) {
      return [tc, sh, node](fw::Hal& hal) {
        return std::unique_ptr<fw::ami::Adapter>(
            std::make_unique<fw::ami::TorusAdapter>(hal, tc, sh, node));
      };
    };
    make_s = make_for(0);
    make_r = make_for(b);
    checkers::AmiChecker::watch(m.machine, *trace);
  }
  // The eager baseline fails mid-run on a message its peer's credits can never cover; the
  // largest eager message (limit or workload size) is known now, so refuse it here with the
  // firmware's own credit arithmetic.
  if (acfg.protocol == ami::Protocol::Eager && acfg.eager_limit > 0) {
    const uint32_t largest = std::min(acfg.eager_limit, cfg.bytes);
    const uint32_t need = ami::eager_credits_needed(largest, payload, acfg.eager);
    const uint32_t have = ami::eager_credits(acfg.temp_bytes, acfg.credit_entries, payload);
    if (need > have) {
      throw InputError(fmt::format(
          "workload.ami.temp_bytes = {} gives {} credits of {} B; an eager message of {} B "
          "(workload.ami.eager_limit = {}, workload.bytes = {}) needs {}: raise "
          "workload.ami.temp_bytes to at least {} or lower workload.ami.eager_limit",
          acfg.temp_bytes, have, payload, largest, acfg.eager_limit, cfg.bytes, need,
          uint64_t{need} * payload));
    }
  }
  // Each endpoint's memory: the AMI's scratch and temporary space, then its buffers.
  ami::AmiConfig acfg_s = acfg, acfg_r = acfg;
  acfg_r.memory = acfg.memory + 0x0800'0000;
  cfg.send_buf = 0x4000'0000;
  cfg.recv_buf = 0x6000'0000;
  const uint64_t span = uint64_t{(cfg.bytes + 4095u) & ~4095u} * uint64_t(2 * cfg.window + 2);
  if (span > 0x2000'0000) {
    throw InputError(
        fmt::format("workload.bytes x workload.window: {} MiB of buffers per side; "
                    "at most 512 MiB",
                    span >> 20));
  }

  // Both endpoints' nodes hold the AMI's scratch and their buffers (one parameter for all).
  node0.dram->require(
      std::max(cfg.send_buf, cfg.recv_buf) + span,
      fmt::format("the send and receive buffers (workload.bytes x (2 x workload.window + 2) at "
                  "{:#x} and {:#x})",
                  cfg.send_buf, cfg.recv_buf));
  if (hops > 0) {
    require_dma_fifos(m, fw::ami::TorusAdapter::kRdmaFifo + 1,
                      fw::ami::TorusAdapter::kReceptionFifo + 1, "the AMI's torus adapter");
  }

  auto out_s = std::make_shared<fw::ami_stream::Results>();
  auto out_r = std::make_shared<fw::ami_stream::Results>();
  m.keep.push_back(out_s);
  m.keep.push_back(out_r);
  // The sender is core 0 of node 0; the receiver core 1 of node 0 (hops = 0) or core 0 of its
  // node. Each runs where its node lives.
  const int send_node = 0, recv_node = hops == 0 ? 0 : cfg.receiver;
  if (part.local(send_node)) {
    m.machine.node(send_node).core_list[0]->set_firmware(
        [cfg, acfg_s, make_s, trace, out_s](fw::Hal& hal) {
          fw::ami_stream::sender(hal, cfg, acfg_s, make_s, trace, *out_s);
        });
  }
  if (part.local(recv_node)) {
    m.machine.node(recv_node).core_list[hops == 0 ? 1 : 0]->set_firmware(
        [cfg, acfg_r, make_r, trace, out_r](fw::Hal& hal) {
          fw::ami_stream::receiver(hal, cfg, acfg_r, make_r, trace, *out_r);
        });
  }
  // A parallel run: each side's results where its node lives; the reporting partition takes
  // the sides it did not run.
  torus::TorusMachine* machine = &m.machine;
  m.save_workload = [machine, send_node, recv_node, out_s, out_r] {
    ByteWriter w;
    for (const auto& [node, out] : {std::pair{send_node, out_s}, std::pair{recv_node, out_r}}) {
      w.put<uint8_t>(machine->partition->local(node));
      if (!machine->partition->local(node)) continue;
      w.put_vector(out->messages);
      w.put(out->sender_stats);
      w.put(out->receiver_stats);
      w.put(out->bad_messages);
      w.put_string(out->first_error);
    }
    return w.take();
  };
  m.merge_workload = [out_s, out_r](const Bytes& b) {
    ByteReader in(b);
    for (const auto& out : {out_s, out_r}) {
      if (in.get<uint8_t>() == 0) continue;
      out->messages = in.get_vector<fw::ami_stream::MessageRecord>();
      out->sender_stats = in.get<ami::AmiStats>();
      out->receiver_stats = in.get<ami::AmiStats>();
      out->bad_messages = in.get<int>();
      out->first_error = in.get_string();
    }
    if (!in.done()) throw std::runtime_error("a partition's AMI figures have bytes left over");
  };

  m.results = [=] {
    Json r;
    const double ns_per_cycle = 1e9 / core_hz;
    r["protocol"] = ami::protocol_name(acfg.protocol);
    r["receive"] = ready;
    r["bytes"] = cfg.bytes;
    r["messages"] = cfg.messages;
    r["adapter"] = hops == 0 ? "shared_memory" : "torus";
    r["receiver"] = hops == 0 ? "node 0 core 1" : shape.name(cfg.receiver);
    const auto& sm = out_s->messages;
    const auto& rm = out_r->messages;
    const bool ran =
        static_cast<int>(sm.size()) == cfg.messages && static_cast<int>(rm.size()) == cfg.messages;
    Json completion = Json::array(), send_done = Json::array(), per = Json::array();
    double sum = 0, worst = 0;
    uint64_t eager = 0, staged = 0, rdma = 0;
    for (int i = 0; ran && i < cfg.messages; ++i) {
      const double c = (rm[i].recv_done - sm[i].send_posted) * ns_per_cycle;
      const double sd = (sm[i].send_done - sm[i].send_posted) * ns_per_cycle;
      sum += c;
      worst = std::max(worst, c);
      eager += rm[i].info.eager_bytes;
      staged += rm[i].info.staged_bytes;
      rdma += rm[i].info.rdma_bytes;
      if (cfg.messages <= 64) {
        completion.push_back(c);
        send_done.push_back(sd);
        per.push_back({{"bytes", rm[i].bytes ? rm[i].info.bytes : 0},
                       {"stop", ami::stop_cause_name(rm[i].info.stop)},
                       {"eager_bytes", rm[i].info.eager_bytes},
                       {"staged_bytes", rm[i].info.staged_bytes},
                       {"rdma_bytes", rm[i].info.rdma_bytes},
                       {"receive_posted_ns", rm[i].recv_posted * ns_per_cycle}});
      }
    }
    const bool data_ok = ran && out_r->bad_messages == 0;
    // Wrong data is wrong at any time; an unfinished stream is a failure only when the run was
    // not cut short.
    auto& checks = CheckRegistry::instance();
    const auto why = [&] {
      return ran ? fmt::format("{} message(s) received wrong: {}", out_r->bad_messages,
                               out_r->first_error)
                 : std::string("the stream did not finish");
    };
    if (out_r->bad_messages != 0) {
      checks.fail("AMI stream: every message received intact", "ami_stream", why());
    } else {
      checks.check_finished_work("AMI stream: every message received intact", ran, "ami_stream",
                                 why);
    }
    r["data_verified"] = data_ok;
    r["completion_ns"] = completion;
    r["send_done_ns"] = send_done;
    r["per_message"] = per;
    r["mean_completion_ns"] = ran ? sum / cfg.messages : 0;
    r["max_completion_ns"] = worst;
    const auto& rs = out_r->receiver_stats;
    const auto& ss = out_s->sender_stats;
    Json stops = Json::object();
    for (int c = 1; c < ami::kStopCauses; ++c) {
      stops[ami::stop_cause_name(static_cast<ami::StopCause>(c))] = rs.stops[c];
    }
    r["stops"] = stops;
    r["eager_bytes_kept"] = eager;
    r["eager_bytes_discarded"] = rs.eager_bytes_discarded;
    r["staged_bytes"] = staged;
    r["rdma_bytes"] = rdma;
    // Moved twice: eager bytes that crossed the network and were thrown away (pulled again),
    // and bytes copied into temporary space and out again.
    r["bytes_moved_twice"] = rs.eager_bytes_discarded + staged;
    r["temp_peak_bytes"] = rs.temp_peak;
    r["temp_bytes"] = acfg.temp_bytes;
    r["sender"] = {{"descriptors", ss.descriptors},
                   {"eager_bytes_posted", ss.eager_bytes_posted},
                   {"ctss", ss.ctss},
                   {"acks", ss.acks},
                   {"credit_waits", ss.credit_waits},
                   {"callbacks", ss.callbacks}};
    r["receiver_descriptors"] = rs.descriptors;
    Json protocol = Json::array();
    for (const auto& [key, rec] : ck->messages()) {
      if (protocol.size() >= 64) break;
      protocol.push_back({{"msg", rec.msg},
                          {"size", rec.size},
                          {"stop", ami::stop_cause_name(rec.stop)},
                          {"eager_at_stop", rec.eager_at_stop},
                          {"cts", rec.cts},
                          {"bottom_lo", rec.bottom_lo},
                          {"final", {rec.final_lo, rec.final_hi}},
                          {"put", {rec.put_lo, rec.put_hi}},
                          {"eager_posted", rec.eager_posted},
                          {"discarded", rec.discarded},
                          {"committed_by_copy", rec.committed_by_copy},
                          {"committed_by_rdma", rec.committed_by_rdma},
                          {"gets", rec.gets},
                          {"stop_ns", rec.stop_ns},
                          {"stop_processed_ns", rec.stop_processed_ns},
                          {"first_bottom_get_ns", rec.first_bottom_ns},
                          {"first_rdma_ns", rec.first_rdma_ns},
                          {"last_eager_ns", rec.last_eager_ns},
                          {"done_ns", rec.done_ns},
                          {"acked", rec.acked},
                          {"send_done", rec.send_done},
                          {"receive_done", rec.receive_done}});
    }
    r["protocol_trace"] = protocol;
    r["checker_violations"] = ck->violations();
    return r;
  };
}

}  // namespace hs::runner
