#include "testbench/runner/mpi_job.h"

#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>

#include "sw/dcmf/dma_share.h"
#include "sw/mpi/coll_algorithms.h"
#include "tlm/common/errors.h"
#include "tlm/common/memory_budget.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace mpi = hs::fw::mpi;

namespace {
std::vector<std::string> orders() {
  std::string s = "TXYZ";
  std::vector<std::string> v;
  do {
    v.push_back(s);
  } while (std::next_permutation(s.begin(), s.end()));
  // The Blue Gene/P default first.
  std::rotate(v.begin(), std::find(v.begin(), v.end(), "XYZT"), v.end());
  return v;
}

std::vector<std::string> names(mpi::Collective c) {
  std::vector<std::string> v;
  for (const auto& a : mpi::algorithms(c)) v.emplace_back(a.name);
  return v;
}
}  // namespace

std::shared_ptr<MpiJob> declare_mpi_job(TorusModel& m) {
  auto job = std::make_shared<MpiJob>();
  m.results_declared.declare({
      {"mode", "", "node mode: smp, dual or vn"},
      {"mapping", "", "the rank order over the torus, or the mapping file"},
      {"ranks", "ranks", "ranks in the job"},
      {"ranks_finished", "ranks", "ranks whose program finished"},
      {"messages", "messages", "point-to-point messages the layer sent, collectives' included"},
      {"bytes", "B", "bytes in those messages"},
      {"unexpected_messages", "messages", "messages that arrived before their receive was posted"},
      {"messages_checked", "messages", "messages the MPI checker matched and compared"},
      {"collectives_verified", "calls", "collective calls whose results the checker verified"},
      {"collective_result_bytes_verified", "B", "bytes of collective results verified"},
      {"algorithms/*", "", "the algorithm each collective ran"},
  });
  ParamScope p("mpi");
  job->mode = mpi::parse_node_mode(p.choice(
      "mode", "smp", "node mode: smp (1 rank a node), dual (2) or vn (4), each rank on a core",
      {"smp", "dual", "vn"}));
  const std::string order =
      p.choice("mapping", "XYZT",
               "rank order over the torus: a permutation of XYZT, the first letter varying fastest "
               "(T: the core on the node)",
               orders());
  const std::string file = p.text(
      "mapping_file", "",
      "a mapping file (one \"x y z t\" line per rank, in rank order) instead of mpi.mapping");
  const int ranks = static_cast<int>(
      p.integer("ranks", 0, "ranks",
                "ranks in the job, the first slots in mapping order (0: one on every core the "
                "node mode uses)",
                Range::between(0, 1 << 24)));
  auto& c = job->cfg;
  c.eager_limit =
      static_cast<uint32_t>(p.integer("eager_limit", c.eager_limit, "B",
                                      "largest message sent eagerly", Range::between(0, 1 << 24)));
  c.split_limit = static_cast<uint32_t>(p.integer(
      "split_limit", c.split_limit, "B",
      "largest message sent by the split transfer; rendezvous above", Range::between(0, 1 << 30)));
  c.match_cycles = static_cast<uint64_t>(p.integer(
      "match_cycles", static_cast<int64_t>(c.match_cycles), "cycles",
      "core cycles per matching step (queue search, request set-up)", Range::between(0, 1e6)));
  c.reduce_cycles_per_byte =
      p.real("reduce_cycles_per_byte", c.reduce_cycles_per_byte, "cycles/B",
             "core cycles per byte of reduction arithmetic", Range::between(0, 1e3));
  c.pipeline_bytes = static_cast<uint32_t>(p.integer(
      "pipeline_bytes", c.pipeline_bytes, "B",
      "broadcast pipeline segment (ring and deposit algorithms)", Range::between(8, 1 << 24)));
  c.messenger.interrupts =
      p.flag("interrupts", true, "ranks wait for the DMA by interrupt (false: poll)");
  ParamScope a("mpi.algorithm");
  auto& al = job->algorithms;
  const auto pick = [&](mpi::Collective k, std::string& into) {
    into = a.choice(mpi::collective_name(k), into,
                    fmt::format("{} algorithm", mpi::collective_name(k)), names(k));
  };
  for (auto k : mpi::kAllCollectives) pick(k, al.of(k));

  const auto& shape = m.machine.shape();
  const int rpn = mpi::ranks_per_node(job->mode);
  const std::string mode_name = mpi::node_mode_name(job->mode);
  const int64_t slots = static_cast<int64_t>(shape.nodes()) * rpn;
  if (ranks > slots) {
    throw InputError(fmt::format(
        "parameter 'mpi.ranks': {} ranks do not fit the machine's {} ({} nodes, {} a node)", ranks,
        slots, shape.nodes(), rpn));
  }
  try {
    job->map = std::make_shared<mpi::RankMap>(file.empty()
                                                  ? mpi::RankMap::by_order(shape, rpn, order, ranks)
                                                  : mpi::RankMap::from_file(shape, rpn, file));
  } catch (const std::invalid_argument& e) {
    throw InputError(
        fmt::format("parameter 'mpi.mapping{}': {}", file.empty() ? "" : "_file", e.what()));
  }
  job->mapping = file.empty() ? order : file;
  for (auto k : mpi::kAllCollectives) {
    std::string why;
    if (mpi::find_algorithm(k, al.of(k), shape, *job->map, {}, why)) continue;
    // A default that does not fit the job (pairwise exchange on the 72x32x32 machine's
    // 73,728 ranks, not a power of two) gives way to the first algorithm that does; the
    // results name the algorithm each collective used. A user's own choice is refused.
    const std::string param = fmt::format("mpi.algorithm.{}", mpi::collective_name(k));
    const ParamInfo* info = ParamRegistry::instance().find(param);
    const bool chosen = !info || info->source != "default";
    bool replaced = false;
    for (const auto& alt : mpi::algorithms(k)) {
      std::string unused;
      if (chosen) break;
      if (!mpi::find_algorithm(k, alt.name, shape, *job->map, {}, unused)) continue;
      al.of(k) = alt.name;
      replaced = true;
      break;
    }
    if (!replaced) throw InputError(fmt::format("parameter '{}': {}", param, why));
  }
  // Every node is built alike (torus.node.*): this process's first stands for them all.
  torus::ComputeNode& node0 = *m.machine.built_nodes().front();
  if (static_cast<int>(node0.core_list.size()) < rpn) {
    throw InputError(
        fmt::format("parameter 'torus.node.cores' = {}: {} mode runs {} ranks a "
                    "node, each on its own core",
                    node0.core_list.size(), mode_name, rpn));
  }
  const auto& dma = node0.dma->config();
  c.messenger.counter_groups = static_cast<int>(dma.injection_bank.groups);
  c.messenger.counters_per_group = static_cast<int>(dma.injection_bank.per_group);
  c.messenger.injection_fifos = dma.injection_fifos;
  c.messenger.reception_fifos = dma.reception_fifos;
  try {
    fw::dcmf::dma_share(0, rpn, dma.injection_fifos, dma.reception_fifos,
                        c.messenger.counter_groups);
  } catch (const fw::dcmf::DmaShareError& e) {
    throw InputError(
        ParamRegistry::instance().refusal(fmt::format("torus.node.dma.{}", e.resource),
                                          fmt::format("in {} mode: {}", mode_name, e.what())));
  }
  require_dma_fifos(m, 0, rpn, "the message-passing layer");
  node0.dram->require(mpi::rank_memory(rpn - 1) + mpi::kRankWindow,
                      fmt::format("{} ranks' memory windows", rpn));
  job->core_hz = node0.core_list[0]->clock_hz();
  job->counts.resize(static_cast<size_t>(job->map->size()));
  job->finished.assign(static_cast<size_t>(job->map->size()), false);
  auto map = job->map;
  torus::TorusMachine* machine = &m.machine;
  const auto peek = [machine, map](int rank, uint64_t addr, void* dst, size_t len) {
    machine->node(map->place(rank).node).dram->peek(addr, dst, len);
  };
  if (m.machine.partition->whole()) {
    job->checker = std::make_shared<checkers::MpiChecker>(map->size(), peek);
  } else {
    auto log = std::make_shared<checkers::MpiTraceLog>(map->size(), peek);
    job->log = log;
    auto checker = std::make_shared<checkers::MpiChecker>(
        map->size(), [log](int, uint64_t, void* dst, size_t len) { log->replay_peek(dst, len); });
    job->checker = checker;
    m.replay_each_window(log, checker);
  }
  m.keep.push_back(job);
  return job;
}

fw::mpi::MpiTrace* MpiJob::trace() const {
  if (log) return log.get();
  return checker.get();
}

void install_ranks(TorusModel& m, const std::shared_ptr<MpiJob>& job, RankProgram program,
                   RankFigures figures) {
  const torus::TorusShape shape = m.machine.shape();
  // A rank's firmware (fiber stack pages touched, communicator, queues): 13 KB measured per rank
  // in VN and SMP modes on halo3d, rounded up; messages in flight add to it as the job runs.
  constexpr double kBytesPerRank = 16 * 1024;
  // A parallel run: this process's nodes and the ranks on them only.
  const torus::Partition& part = *m.machine.partition;
  int ranks = 0;
  for (int r = 0; r < job->map->size(); ++r) {
    if (part.local(job->map->place(r).node)) ++ranks;
  }
  const auto nodes = static_cast<int>(part.local_nodes().size());
  MemoryBudget::instance().require(
      torus::TorusMachine::kBytesPerNode * nodes + kBytesPerRank * ranks,
      part.whole() ? fmt::format("the torus of {} nodes with {} ranks", nodes, ranks)
                   : fmt::format("partition {} of the torus ({} of its {} nodes, {} ranks)",
                                 part.self(), nodes, shape.nodes(), ranks),
      "torus.network.x, .y, .z; mpi.mode, mpi.ranks");
  MpiJob* j = job.get();
  for (int r = 0; r < job->map->size(); ++r) {
    const auto& place = job->map->place(r);
    if (!part.local(place.node)) continue;
    m.machine.node(place.node)
        .core_list[static_cast<size_t>(place.t)]
        ->set_firmware([j, shape, r, program](fw::Hal& hal) {
          mpi::Comm comm(hal, j->cfg, shape, *j->map, r, j->trace());
          comm.init();
          mpi::Collectives coll(comm, j->algorithms);
          program(comm, coll);
          j->counts[static_cast<size_t>(r)] = comm.counts();
          j->finished[static_cast<size_t>(r)] = true;
        });
  }
  gather_job_figures(m, job, std::move(figures));
}

void gather_job_figures(TorusModel& m, const std::shared_ptr<MpiJob>& job, RankFigures figures,
                        PartitionFigures partition) {
  // A parallel run: each partition's ranks, in rank order (the checker's events went to the
  // reporting partition window by window).
  MpiJob* j = job.get();
  torus::TorusMachine* machine = &m.machine;
  m.save_workload = [j, machine, figures, partition] {
    ByteWriter w;
    for (int r = 0; r < j->ranks(); ++r) {
      if (!machine->partition->local(j->map->place(r).node)) continue;
      w.put(r);
      w.put(j->counts[static_cast<size_t>(r)]);
      w.put<uint8_t>(j->finished[static_cast<size_t>(r)]);
      if (figures.save) figures.save(r, w);
    }
    w.put(-1);
    if (partition.save) partition.save(w);
    return w.take();
  };
  m.merge_workload = [j, figures, partition](const Bytes& b) {
    ByteReader in(b);
    for (int r = in.get<int>(); r >= 0; r = in.get<int>()) {
      if (r >= j->ranks()) throw std::runtime_error("a partition's figures name no rank");
      j->counts[static_cast<size_t>(r)] = in.get<mpi::RankCounts>();
      j->finished[static_cast<size_t>(r)] = in.get<uint8_t>() != 0;
      if (figures.merge) figures.merge(r, in);
    }
    if (partition.merge) partition.merge(in);
    if (!in.done()) throw std::runtime_error("a partition's MPI figures have bytes left over");
  };
}

void save_timing(const fw::motifs::Timing& t, ByteWriter& w) {
  w.put_vector(t.iteration_cycles);
  for (uint64_t v : {t.compute_cycles, t.comm_cycles, t.messages, t.bytes}) w.put(v);
}

fw::motifs::Timing load_timing(ByteReader& r) {
  fw::motifs::Timing t;
  t.iteration_cycles = r.get_vector<uint64_t>();
  for (uint64_t* v : {&t.compute_cycles, &t.comm_cycles, &t.messages, &t.bytes}) {
    *v = r.get<uint64_t>();
  }
  return t;
}

RankFigures timing_figures(std::shared_ptr<std::vector<fw::motifs::Timing>> timing) {
  return {
      [timing](int rank, ByteWriter& w) { save_timing((*timing)[static_cast<size_t>(rank)], w); },
      [timing](int rank, ByteReader& r) { (*timing)[static_cast<size_t>(rank)] = load_timing(r); }};
}

void declare_iterations(int& iterations, int& warmup) {
  ParamScope p("workload");
  iterations = static_cast<int>(
      p.integer("iterations", iterations, "", "timed iterations", Range::between(1, 100000)));
  warmup = static_cast<int>(
      p.integer("warmup", warmup, "", "untimed iterations first", Range::between(0, 1000)));
}

std::shared_ptr<std::vector<fw::motifs::Timing>> install_motif(TorusModel& m,
                                                               const std::shared_ptr<MpiJob>& job,
                                                               MotifProgram motif) {
  declare_motif_results(m);
  auto timing =
      std::make_shared<std::vector<fw::motifs::Timing>>(static_cast<size_t>(job->ranks()));
  m.keep.push_back(timing);
  install_ranks(
      m, job,
      [timing, motif](fw::mpi::Comm& comm, fw::mpi::Collectives& coll) {
        motif(comm, coll, (*timing)[static_cast<size_t>(comm.rank())]);
      },
      timing_figures(timing));
  return timing;
}

nlohmann::json MpiJob::json() const {
  checker->finish();
  uint64_t msgs = 0, bytes = 0, unexpected = 0;
  for (const auto& c : counts) {
    msgs += c.messages_sent;
    bytes += c.bytes_sent;
    unexpected += c.unexpected;
  }
  nlohmann::json j;
  j["mode"] = mpi::node_mode_name(mode);
  j["mapping"] = mapping;
  j["ranks"] = map->size();
  j["ranks_finished"] = std::count(finished.begin(), finished.end(), true);
  j["messages"] = msgs;
  j["bytes"] = bytes;
  j["unexpected_messages"] = unexpected;
  j["messages_checked"] = checker->messages();
  j["collectives_verified"] = checker->collectives_verified();
  j["collective_result_bytes_verified"] = checker->result_bytes_verified();
  for (auto k : mpi::kAllCollectives) j["algorithms"][mpi::collective_name(k)] = algorithms.of(k);
  return j;
}

void declare_motif_results(TorusModel& m) {
  m.results_declared.declare({
      {"iterations", "iterations", "timed iterations"},
      {"time_per_iteration_ns", "ns", "the slowest rank's mean time per timed iteration"},
      {"mean_rank_time_per_iteration_ns", "ns",
       "the mean over ranks of each rank's time per iteration"},
      {"compute_fraction", "fraction", "the share of the ranks' time spent computing"},
      {"communication_ns_per_iteration", "ns",
       "a rank's time in communication per iteration, mean over ranks"},
      {"messages_per_iteration", "messages", "messages per iteration over all ranks"},
      {"bytes_per_iteration", "B", "bytes per iteration over all ranks"},
  });
}

nlohmann::json motif_json(const MpiJob& job, const std::vector<fw::motifs::Timing>& timing) {
  double slowest = 0, sum = 0;
  uint64_t compute = 0, comm = 0, messages = 0, bytes = 0;
  size_t iterations = 0;
  for (const auto& t : timing) {
    if (t.iteration_cycles.empty()) continue;
    double total = 0;
    for (uint64_t c : t.iteration_cycles) total += static_cast<double>(c);
    const double mean = total / static_cast<double>(t.iteration_cycles.size());
    slowest = std::max(slowest, mean);
    sum += mean;
    compute += t.compute_cycles;
    comm += t.comm_cycles;
    messages += t.messages;
    bytes += t.bytes;
    iterations = t.iteration_cycles.size();
  }
  nlohmann::json j = job.json();
  const double ns = 1e9 / job.core_hz;
  j["iterations"] = iterations;
  j["time_per_iteration_ns"] = slowest * ns;
  j["mean_rank_time_per_iteration_ns"] = timing.empty() ? 0 : sum / timing.size() * ns;
  j["compute_fraction"] = compute + comm ? double(compute) / double(compute + comm) : 0;
  j["communication_ns_per_iteration"] =
      iterations && !timing.empty() ? double(comm) / timing.size() / iterations * ns : 0;
  j["messages_per_iteration"] = iterations ? double(messages) / iterations : 0;
  j["bytes_per_iteration"] = iterations ? double(bytes) / iterations : 0;
  return j;
}

}  // namespace hs::runner
