// The `mpi_program` workload (what `hybridsim mpirun` runs): a user's MPI program, built with
// hybridsim-mpicc into a module (workload.program), run as every rank of an MPI job on the
// torus machine. Each rank is a private instance of the program (sw/user/) on its core, with
// its memory as host windows of its node's rank window, calling MPI through the binding
// (sw/mpi/api/). The MPI checker verifies every match and collective as in any MPI run.
//
// How the job ends: every rank must call MPI_Finalize and return 0 (or exit(0)). A rank that
// exits with another status, aborts, crashes, calls MPI_Abort or makes an erroneous MPI call
// (MPI_ERRORS_ARE_FATAL) fails the run naming the rank, what happened and where; the first
// such end's status is the job's exit status (results.exit_status), which mpirun returns.
//
// A parallel run (docs/parallel.md): each partition runs its own nodes' ranks. Their output
// lines and abnormal ends are held, each with its place in the sequential run's order
// (hw/cpu/core_activation.h), and reach the reporting partition at each window's end, which
// prints the lines once, in that order, and takes the first abnormal end's status as the
// job's. A failed rank stops every partition at the next window's end (a failed check); what
// the sequential run never reached (the other partitions' stretch of that window) is left out.
#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <tuple>

#include "hw/cpu/core_activation.h"
#include "sw/mpi/api/mpi_rank.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/user_programs.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/kernel/fiber.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {

constexpr const char* kRankEnds = "MPI program: every rank calls MPI_Finalize and returns 0";
constexpr const char* kMpiCalls =
    "MPI program: every MPI call is correct (no MPI error, no MPI_Abort)";

// A held record's place in the sequential run's order: the time, the delta cycle of the
// instant, then where the activation of the core that made it stands among that delta cycle's
// (append_activation_place, core_activation.h: the order the transaction trace merges a core's
// calls in), then the partition and that partition's own count (one activation's
// records keep their order). What a rank prints as its firmware is unwound after the run (its
// buffered output) comes last, in the order the kernel unwinds the cores: the machine's last
// core first.
struct RunPlace {
  static constexpr uint64_t kUnwound = UINT64_MAX;  // the time of what is printed after the run
  uint64_t at = 0, delta = 0;
  std::vector<uint64_t> key;
  int partition = 0;
  uint64_t seq = 0;

  bool operator<(const RunPlace& o) const {
    return std::tie(at, delta, key, partition, seq) <
           std::tie(o.at, o.delta, o.key, o.partition, o.seq);
  }
  // Whether a run stopped by the end at `stop` still got here: the sequential run ends with
  // the delta cycle of the failure, so the rest of that delta cycle is in.
  bool reached_by(const RunPlace& stop) const {
    if (at == kUnwound) return true;  // every run unwinds what is left
    return at < stop.at || (at == stop.at && delta <= stop.delta);
  }
  void save(ByteWriter& w) const {
    for (uint64_t v : {at, delta, seq}) w.put(v);
    w.put(partition);
    w.put_vector(key);
  }
  static RunPlace load(ByteReader& r) {
    RunPlace p;
    for (uint64_t* v : {&p.at, &p.delta, &p.seq}) *v = r.get<uint64_t>();
    p.partition = r.get<int>();
    p.key = r.get_vector<uint64_t>();
    return p;
  }
};

// A record held with its place: an abnormal end (value: the rank's status; text: why), or a
// line of a rank's output in a parallel run (value: the stream).
struct Held {
  RunPlace place;
  int value = 0;
  std::string text;

  bool operator<(const Held& o) const { return place < o.place; }
  static void save(const std::vector<Held>& records, ByteWriter& w) {
    w.put(static_cast<uint64_t>(records.size()));
    for (const Held& h : records) {
      h.place.save(w);
      w.put(h.value);
      w.put_string(h.text);
    }
  }
  static void merge(ByteReader& r, std::vector<Held>& into) {
    for (auto n = r.get<uint64_t>(); n > 0; --n) {
      Held h;
      h.place = RunPlace::load(r);
      h.value = r.get<int>();
      h.text = r.get_string();
      into.push_back(std::move(h));
    }
  }
};

// A rank's own figures, read where it ran.
struct RankProgramFigures {
  uint64_t compute_cycles = 0, calls = 0, host_bytes = 0, heap_peak = 0;
};

// The job's ranks and how they ended.
struct ProgramJob {
  std::shared_ptr<const user::ProgramImage> image;
  std::unique_ptr<user::ProgramOutput> output;
  // By rank; null for another partition's ranks in a parallel run.
  std::vector<std::unique_ptr<user::ProgramInstance>> instances;
  std::vector<std::unique_ptr<fw::mpi::api::MpiRank>> ranks;
  std::vector<const Core*> cores;
  fw::mpi::api::MpiJobLink link;
  UserProgramParams params;
  // The abnormal ends, in order (a parallel run: every partition's, at partition 0).
  std::vector<Held> ends;
  double last_end_ns = 0;
  std::vector<bool> reported;  // a rank whose failure is already recorded
  // A parallel run: this partition's number, its ends and lines not yet handed to partition 0
  // and its count of them, the lines partition 0 has still to print, and the other
  // partitions' ranks' figures.
  bool parallel = false;
  int partition = 0;
  std::vector<Held> held_ends, held_lines, lines;
  uint64_t held = 0;
  std::vector<RankProgramFigures> figures;

  // Where rank r's core stands in the run's order now.
  RunPlace place(int rank) {
    RunPlace p;
    p.at = hs::now().value();
    p.partition = partition;
    p.seq = held++;
    if (!parallel) return p;  // a sequential run keeps the order things happen in
    if (const Fiber* f = Fiber::current(); f && f->unwinding()) {
      const auto& where = link.map->place(rank);
      p.at = RunPlace::kUnwound;
      p.key = {~(static_cast<uint64_t>(where.node) << 16 | static_cast<uint64_t>(where.t))};
      return p;
    }
    p.delta = sc_core::sc_delta_count_at_current_time();
    append_activation_place(*cores[static_cast<size_t>(rank)], p.key);
    return p;
  }

  void fail(int rank, int status, const std::string& why, const char* check) {
    reported[static_cast<size_t>(rank)] = true;
    (parallel ? held_ends : ends).push_back({place(rank), status, why});
    CheckRegistry::instance().fail(check, fmt::format("rank {}", rank), why);
  }

  RankProgramFigures figures_of(int rank) const {
    const auto& i = instances[static_cast<size_t>(rank)];
    if (!i) return figures[static_cast<size_t>(rank)];
    RankProgramFigures f;
    f.compute_cycles = i->compute_cycles();
    f.calls = i->calls();
    f.host_bytes = i->host_bytes();
    if (const auto* h = i->heap_if_started()) f.heap_peak = h->peak();
    return f;
  }

  // Partition 0 of a parallel run, with every partition's records to some window's end (and
  // its own, at the run's end): prints the lines the sequential run reached, in its order. It
  // stopped with the delta cycle of the first abnormal end: later ends and lines are dropped.
  void print_reached() {
    std::stable_sort(ends.begin(), ends.end());
    std::sort(lines.begin(), lines.end());
    if (!ends.empty()) {
      const RunPlace stop = ends.front().place;
      const auto late = [&](const Held& h) { return !h.place.reached_by(stop); };
      ends.erase(std::remove_if(ends.begin(), ends.end(), late), ends.end());
      lines.erase(std::remove_if(lines.begin(), lines.end(), late), lines.end());
    }
    for (const Held& l : lines) output->print(l.value, l.text);
    lines.clear();
  }
  void finish_parallel() {
    ends.insert(ends.end(), held_ends.begin(), held_ends.end());
    lines.insert(lines.end(), held_lines.begin(), held_lines.end());
    held_ends.clear();
    held_lines.clear();
    print_reached();
  }

  // After rank r's program returned to its firmware.
  void ended(int r) {
    user::ProgramInstance& p = *instances[static_cast<size_t>(r)];
    const auto& mpi = *ranks[static_cast<size_t>(r)];
    last_end_ns = std::max(last_end_ns, hs::now().to_seconds() * 1e9);
    static Check& ends_check = CheckRegistry::instance().check(kRankEnds);
    ++ends_check.evaluations;
    if (reported[static_cast<size_t>(r)]) return;  // an MPI error or MPI_Abort said why
    using End = user::ProgramInstance::End;
    std::string why;
    if (p.end() != End::Exited) {
      why = fmt::format("rank {} {}", r, p.end_description());
    } else if (p.exit_status() != 0) {
      why = fmt::format("rank {} exited with status {}", r, p.exit_status());
    } else if (mpi.initialized() && !mpi.finalized()) {
      why = fmt::format("rank {} returned without calling MPI_Finalize", r);
    } else if (!mpi.initialized()) {
      return;  // a program that never used MPI
    } else {
      return;
    }
    fail(r, p.exit_status() != 0 ? p.exit_status() : 1, why, kRankEnds);
  }

  // A parallel run: this partition's ends and lines not yet handed on, at each window's end
  // (take_window) and at the run's end (save, with the time of its ranks' last end); at
  // partition 0, a partition's added.
  Bytes take_window() {
    ByteWriter w;
    Held::save(held_ends, w);
    Held::save(held_lines, w);
    held_ends.clear();
    held_lines.clear();
    return w.take();
  }
  void show_window(const std::vector<Bytes>& by_partition) {
    for (const Bytes& b : by_partition) {
      ByteReader r(b);
      Held::merge(r, ends);
      Held::merge(r, lines);
    }
    print_reached();
  }
  void save(ByteWriter& w) const {
    Held::save(held_ends, w);
    Held::save(held_lines, w);
    w.put(last_end_ns);
  }
  void merge(ByteReader& r) {
    Held::merge(r, ends);
    Held::merge(r, lines);
    last_end_ns = std::max(last_end_ns, r.get<double>());
  }
};

}  // namespace

HYBRIDSIM_WORKLOAD(mpi_program, TorusModel,
                   "an MPI program built with hybridsim-mpicc (workload.program), one private "
                   "instance per rank: what hybridsim mpirun runs") {
  auto job = declare_mpi_job(m);
  m.results_declared.declare({
      {"program", "", "the program run, as given to mpirun"},
      {"exit_status", "", "mpirun's exit status: 0, or the first rank's failing status"},
      {"abnormal_ends", "", "ranks that ended without MPI_Finalize, or aborted, in order"},
      {"compute_model", "", "how host code between MPI calls is charged: scaled, fixed or zero"},
      {"program_compute_cycles", "cycles", "core cycles charged for the ranks' own code"},
      {"calls_into_the_simulator", "calls", "MPI and runtime calls the ranks made"},
      {"host_bytes_per_rank", "B", "host memory a rank's private copy of the program takes"},
      {"heap_peak_bytes_max", "B", "the largest heap a rank reached"},
      {"collectives_unverified", "calls",
       "collective calls whose results the checker could not verify (user operations)"},
      {"job_time_ns", "ns", "from the job's start to its last rank's end"},
  });
  ParamScope p("workload");
  const std::string program_param = p.name("program");
  const std::string path = p.text("program", "", "the program module hybridsim-mpicc built");
  const std::string args_text =
      p.text("args", "[]", "the program's arguments, a JSON list of strings (argv[1...])");
  if (path.empty()) {
    throw InputError(
        fmt::format("parameter '{}': the mpi_program workload needs a program "
                    "(hybridsim mpirun -n N PROGRAM)",
                    program_param));
  }
  std::vector<std::string> args;
  try {
    const auto j = nlohmann::json::parse(args_text);
    if (!j.is_array()) throw std::invalid_argument("not a list");
    for (const auto& a : j) {
      if (!a.is_string()) throw std::invalid_argument("not a list of strings");
      args.push_back(a.get<std::string>());
    }
  } catch (const std::exception& e) {
    throw InputError(fmt::format("parameter '{}' = {}: expects a JSON list of strings ({})",
                                 p.name("args"), args_text, e.what()));
  }
  auto pj = std::make_shared<ProgramJob>();
  pj->params = declare_user_program_params();
  ParamScope mp("mpi");
  pj->link.poll_cycles = static_cast<uint64_t>(
      mp.integer("poll_cycles", 100, "cycles",
                 "core cycles each polling call costs (MPI_Test*, MPI_Iprobe), besides the "
                 "layer's own accesses",
                 Range::between(0, 1e9)));
  pj->link.pack_bytes_per_cycle =
      mp.real("pack_bytes_per_cycle", 8, "B/cycle",
              "the core packing and unpacking staged buffers (derived datatypes)",
              Range::between(0.01, 1e3));
  pj->link.pack_run_cycles = static_cast<uint64_t>(
      mp.integer("pack_run_cycles", 4, "cycles",
                 "core cycles per contiguous piece packed or unpacked", Range::between(0, 1e6)));
  pj->image = read_program(path, program_param);
  pj->output = std::make_unique<user::ProgramOutput>(stdout, stderr, pj->params.labels);
  pj->link.cfg = &job->cfg;
  pj->link.algorithms = &job->algorithms;
  pj->link.map = job->map.get();
  pj->link.shape = m.machine.shape();
  pj->link.trace = job->trace();
  ProgramJob* state = pj.get();
  pj->link.fail = [state](int rank, int status, const std::string& why) {
    state->fail(rank, status, why, kMpiCalls);
  };
  CheckRegistry::instance().check(kRankEnds);
  CheckRegistry::instance().check(kMpiCalls);
  const int n = job->ranks();
  const torus::Partition& part = *m.machine.partition;
  pj->reported.assign(static_cast<size_t>(n), false);
  pj->instances.resize(static_cast<size_t>(n));
  pj->ranks.resize(static_cast<size_t>(n));
  pj->cores.assign(static_cast<size_t>(n), nullptr);
  pj->figures.resize(static_cast<size_t>(n));
  if (!part.whole()) {
    pj->parallel = true;
    pj->partition = part.self();
    keep_core_activations();
    pj->output->hold_lines([state](const std::string& label, int stream, std::string line) {
      state->held_lines.push_back({state->place(std::stoi(label)), stream, std::move(line)});
    });
    // Partition 0 prints the lines at each window's end, as far as every partition has run.
    m.take_window_workload = [state] { return state->take_window(); };
    m.show_window_workload = [state](const std::vector<Bytes>& b) { state->show_window(b); };
  }
  MpiJob* j = job.get();
  for (int r = 0; r < n; ++r) {
    const auto& place = job->map->place(r);
    if (!part.local(place.node)) continue;  // another partition runs it
    torus::ComputeNode& node = m.machine.node(place.node);
    user::InstanceSetup s;
    s.name = fmt::format("rank {}", r);
    s.label = std::to_string(r);
    s.args = args;
    s.region_base = fw::mpi::rank_memory(place.t);
    s.region_bytes = fw::mpi::kRankScratch;
    s.stack_bytes = pj->params.stack_bytes;
    s.stack_param = pj->params.stack_param;
    s.compute = pj->params.compute;
    s.output = pj->output.get();
    auto& instance = pj->instances[static_cast<size_t>(r)];
    try {
      instance =
          std::make_unique<user::ProgramInstance>(pj->image, std::move(s), windows_in(*node.dram));
    } catch (const std::runtime_error& e) {
      throw InputError(fmt::format("parameter '{}': {}", program_param, e.what()));
    }
    pj->ranks[static_cast<size_t>(r)] =
        std::make_unique<fw::mpi::api::MpiRank>(*instance, pj->link, r);
    Core* core = node.core_list[static_cast<size_t>(place.t)].get();
    pj->cores[static_cast<size_t>(r)] = core;
    core->set_stack(pj->params.stack_bytes, true);
    core->set_firmware([state, j, r](fw::Hal& hal) {
      state->instances[static_cast<size_t>(r)]->run(hal);
      j->counts[static_cast<size_t>(r)] = state->ranks[static_cast<size_t>(r)]->counts();
      j->finished[static_cast<size_t>(r)] = true;
      state->ended(r);
    });
  }
  // A rank that never finishes is named by its MPI call (and the line that made it).
  std::vector<std::pair<const Core*, int>> rank_of_core;
  for (int r = 0; r < n; ++r) {
    if (pj->cores[static_cast<size_t>(r)])
      rank_of_core.emplace_back(pj->cores[static_cast<size_t>(r)], r);
  }
  m.core_notes = [state, rank_of_core](const Core* c) -> std::string {
    for (const auto& [core, r] : rank_of_core) {
      if (core != c) continue;
      const std::string call = state->ranks[static_cast<size_t>(r)]->current_call();
      return fmt::format("rank {}{}", r, call.empty() ? "" : ": " + call);
    }
    return "";
  };
  m.keep.push_back(pj);
  RankFigures figures;  // a parallel run: each rank's own figures, then the partition's records
  figures.save = [state](int rank, ByteWriter& w) {
    const RankProgramFigures f = state->figures_of(rank);
    for (uint64_t v : {f.compute_cycles, f.calls, f.host_bytes, f.heap_peak}) w.put(v);
  };
  figures.merge = [state](int rank, ByteReader& in) {
    RankProgramFigures& f = state->figures[static_cast<size_t>(rank)];
    for (uint64_t* v : {&f.compute_cycles, &f.calls, &f.host_bytes, &f.heap_peak}) {
      *v = in.get<uint64_t>();
    }
  };
  gather_job_figures(
      m, job, figures,
      {[state](ByteWriter& w) { state->save(w); }, [state](ByteReader& in) { state->merge(in); }});
  m.results = [job, pj, path] {
    if (pj->parallel) pj->finish_parallel();  // every partition's records are here by now
    nlohmann::json r = job->json();
    r["program"] = path;
    r["exit_status"] = pj->ends.empty() ? 0 : pj->ends.front().value;
    std::vector<std::string> ends;
    for (const Held& e : pj->ends) ends.push_back(e.text);
    r["abnormal_ends"] = ends;
    r["compute_model"] = user::compute_kind_name(pj->params.compute.kind);
    uint64_t compute = 0, calls = 0, host = 0, heap_peak = 0;
    const int ranks = job->ranks();
    for (int rank = 0; rank < ranks; ++rank) {
      const RankProgramFigures f = pj->figures_of(rank);
      compute += f.compute_cycles;
      calls += f.calls;
      host += f.host_bytes;
      heap_peak = std::max(heap_peak, f.heap_peak);
    }
    r["program_compute_cycles"] = compute;
    r["calls_into_the_simulator"] = calls;
    r["host_bytes_per_rank"] = ranks == 0 ? 0 : host / static_cast<uint64_t>(ranks);
    r["heap_peak_bytes_max"] = heap_peak;
    r["collectives_unverified"] = job->checker->collectives_unverified();
    r["job_time_ns"] = pj->last_end_ns;
    return r;
  };
}

}  // namespace hs::runner
