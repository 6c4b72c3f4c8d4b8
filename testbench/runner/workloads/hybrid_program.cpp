// The `hybrid_program` workload: a user's Cell program, built with hybridsim-cellcc, on the
// hybrid node's first accelerator. The PPE program (workload.program) runs on the PPE as a
// private instance (sw/user/) with its memory in the Cell's DRAM; each SPU program it loads
// with spe_program_load runs on its SPE with its memory in the local store
// (sw/cell/program/). The PPE program's output goes to the terminal and its exit status is
// the run's (results.program_exit_status, which `hybridsim run` returns when the run fails).
//
// How the run ends: the PPE program returns 0 (or exit(0)), and every SPU program it started
// has stopped. A PPE program that exits with another status, aborts or crashes, an SPU program
// that aborts or crashes, and a misuse of libspe2 or of the MFC fail the run naming the
// program, what happened and where.
//
// With a host program (workload.host_program, built with hybridsim-cellcc --target=host), the
// run has three levels: the host program runs on host core 0 (an Opteron on the TriBlade) with
// its memory in host DRAM, and the PPE program is the one it starts on accelerator 0 with
// dacs_de_start (sw/cell/program/dacs_element.h); both call dacs.h. The host program's exit
// status is the run's; how its PPE program ended is what dacs_de_wait tells it.
#include <elf.h>
#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "hw/cell/spe_interface.h"
#include "sw/cell/ppe_sdk.h"
#include "sw/cell/program/dacs_element.h"
#include "sw/cell/program/ppe_program.h"
#include "sw/cell/program/ppe_threads.h"
#include "sw/cell/program/spu_program.h"
#include "sw/hal/irq_wait.h"
#include "sw/hal/spe_mmio.h"
#include "sw/hal/spu.h"
#include "sw/slmpm/shared_memory.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/user_programs.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {

constexpr const char* kPpeEnds = "Cell program: the PPE program returns 0";
constexpr const char* kSpuEnds = "Cell program: every SPU program ends by returning or exit";
constexpr const char* kHostEnds = "Host program: returns 0";
// The host program's region of host DRAM, below the SLMPM's shared memory.
constexpr uint64_t kHostRegionBase = uint64_t{256} << 20;
constexpr uint64_t kHostRegionBytes = uint64_t{512} << 20;
// DaCS's use of the accelerator's DRAM below the PPE program: its DMA engine's requests.
constexpr uint64_t kDacsRequests = uint64_t{16} << 20;
constexpr uint64_t kDacsReceive = uint64_t{17} << 20;  // the SLMPM's (unused) receive slot
// Each side's DaCS control area (posted descriptors), in its SLMPM region.
constexpr uint64_t kDacsControl = 0xE'0000;
constexpr uint32_t kRingSegments = 32;
// The PPE program's region of the Cell's DRAM: above what firmware conventionally uses.
constexpr uint64_t kPpeRegionBase = uint64_t{256} << 20;
constexpr uint64_t kPpeRegionMax = uint64_t{512} << 20;
constexpr uint64_t kMinSpuHeap = 16 * 1024;

std::string kib(uint64_t bytes) {
  return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024.0);
}

struct SpeSlot {
  std::shared_ptr<const user::ProgramImage> image;
  std::unique_ptr<user::ProgramInstance> instance;  // fresh for the next run
  bool running = false;
  int runs = 0;
  uint64_t compute_cycles = 0, calls = 0;
};

struct CellJob {
  std::shared_ptr<const user::ProgramImage> image;
  std::unique_ptr<user::ProgramOutput> output;
  std::unique_ptr<user::ProgramInstance> ppe;
  std::vector<SpeSlot> spes;
  UserProgramParams params;
  uint64_t spu_stack = 0;
  std::string spu_stack_param;
  std::vector<std::string> args;
  std::vector<std::string> ends;  // abnormal ends, in order
  int exit_status = 0;
  bool ppe_done = false;
  int ppe_threads = 0;
  uint64_t thread_switches = 0;
  double ppe_end_ns = 0;
  cell::CellAccelerator* acc = nullptr;
  const fw::cell_program::LsMapping* ls = nullptr;  // while the PPE program runs
  // Three levels: the host program and what its DaCS shares with the PPE program's.
  std::shared_ptr<const user::ProgramImage> host_image;
  std::unique_ptr<user::ProgramInstance> host;
  fw::dacs::Pair pair;
  fw::dacs::Path path;
  fw::dacs::Counters dacs;
  std::unique_ptr<fw::os::OsModel> os;
  std::unique_ptr<fw::slmpm::RegistrationCache> cache;
  double host_end_ns = 0;
  int ppe_runs = 0;
  std::string ppe_path;
  uint64_t earlier_ppe_calls = 0, earlier_ppe_compute = 0, earlier_ppe_heap = 0;  // ended runs

  // A fresh instance of SPE `s`'s loaded program in its local store; throws
  // std::runtime_error saying what does not fit.
  void make_spu_instance(int s) {
    SpeSlot& slot = spes[static_cast<size_t>(s)];
    slot.instance.reset();  // its windows leave the local store first
    user::InstanceSetup setup;
    setup.name = fmt::format("SPE {} ({})", s, slot.image->name());
    setup.label = fmt::format("spe{}", s);
    setup.region_base = 0;
    setup.region_bytes = fw::cell_program::kProgramTop;
    setup.stack_bytes = spu_stack;
    setup.stack_param = spu_stack_param;
    setup.compute = params.compute;
    setup.output = output.get();
    // What the program needs, from its loadable segments, before anything is loaded.
    uint64_t code = 0, data = 0;
    const std::string& b = slot.image->bytes();
    Elf64_Ehdr eh;
    std::memcpy(&eh, b.data(), sizeof eh);
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
      Elf64_Phdr ph;
      const uint64_t at = eh.e_phoff + uint64_t{i} * eh.e_phentsize;
      if (at + sizeof ph > b.size()) break;
      std::memcpy(&ph, b.data() + at, sizeof ph);
      if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
      const uint64_t pages =
          ((ph.p_vaddr + ph.p_memsz + 4095) & ~uint64_t{4095}) - (ph.p_vaddr & ~uint64_t{4095});
      ((ph.p_flags & PF_W) ? data : code) += pages;
    }
    const uint64_t top = fw::cell_program::kProgramTop;
    const uint64_t need = code + data + spu_stack + kMinSpuHeap;
    if (need > top) {
      throw std::runtime_error(fmt::format(
          "the SPU program {} does not fit SPE {}'s local store: its code and constants ({}), "
          "globals ({}), stack ({}, workload.spu_stack_size) and at least {} of heap need {}, "
          "{} more than the {} below the run parameters' page",
          slot.image->name(), s, kib(code), kib(data), kib(spu_stack), kib(kMinSpuHeap), kib(need),
          kib(need - top), kib(top)));
    }
    try {
      slot.instance = std::make_unique<user::ProgramInstance>(
          slot.image, std::move(setup), windows_in(acc->spes[static_cast<size_t>(s)]->local_store));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(fmt::format("the SPU program {} cannot be loaded into SPE {}: {}",
                                           slot.image->name(), s, e.what()));
    }
  }

  // The run's first failing end sets its exit status.
  void record_end(const std::string& why, int status) {
    if (exit_status == 0) exit_status = status;
    ends.push_back(why);
  }

  // SPE s's firmware: each run request runs the loaded program afresh, until the PPE program
  // has ended and no run is asked for.
  void spu_firmware(fw::Hal& hal, int s) {
    namespace ctl = cell::spe::ctl;
    const uint64_t base = hybrid::amap::kSpeControl;
    static Check& spu_check = CheckRegistry::instance().check(kSpuEnds);
    SpeSlot& slot = spes[static_cast<size_t>(s)];
    for (;;) {
      fw::irq::wait_until(hal, 1u << cell::spe::kRunLine, fw::spu::kIrqTimeoutCycles, "SPE run",
                          [&] { return ppe_done || hal.reg_read(base + ctl::kRunRequest) != 0; });
      if (ppe_done && !slot.running) return;
      hal.reg_write(base + ctl::kStart, 1);
      uint64_t words[6];
      hal.load(hybrid::amap::kSpeLocalStore + fw::cell_sdk::kRunParameters, words, sizeof words);
      if (!slot.instance || slot.instance->started()) make_spu_instance(s);
      user::ProgramInstance& p = *slot.instance;
      const uint64_t params[3] = {words[0], words[2], words[4]};
      fw::cell_program::SpuProgram binding(p, hal, params);
      binding.provide_to(p);
      p.run(hal);
      ++slot.runs;
      slot.compute_cycles += p.compute_cycles();
      slot.calls += p.calls();
      ++spu_check.evaluations;
      using End = user::ProgramInstance::End;
      if (p.end() != End::Exited) {
        const std::string why = fmt::format("{} {}", p.name(), p.end_description());
        record_end(why, p.exit_status());
        CheckRegistry::instance().fail(kSpuEnds, fmt::format("SPE {}", s), why);
      }
      // The SDK's stop: the exit code's low byte with the normal-end marker (ppe_sdk.cpp).
      slot.running = false;
      hal.reg_write(base + ctl::kStop, 0x2000u | (static_cast<uint32_t>(p.exit_status()) & 0xFF));
    }
  }
};

}  // namespace

namespace {

// The PPE program's instance in its region of the Cell's DRAM; throws std::runtime_error saying
// what does not fit.
void make_ppe(CellJob& job, const std::vector<std::string>& args) {
  if (job.ppe) {  // an earlier run's: its windows leave the Cell's memory
    job.earlier_ppe_calls += job.ppe->calls();
    job.earlier_ppe_compute += job.ppe->compute_cycles();
    if (const auto* h = job.ppe->heap_if_started()) {
      job.earlier_ppe_heap = std::max<uint64_t>(job.earlier_ppe_heap, h->peak());
    }
    job.ppe.reset();
  }
  const uint64_t dram = job.acc->dram->size();
  user::InstanceSetup s;
  s.name = fmt::format("the PPE program ({})", job.image->name());
  s.label = "ppe";
  s.args = args;
  s.region_base = kPpeRegionBase;
  s.region_bytes = std::min(kPpeRegionMax, dram - kPpeRegionBase);
  s.stack_bytes = job.params.stack_bytes;
  s.stack_param = job.params.stack_param;
  s.compute = job.params.compute;
  s.output = job.output.get();
  job.ppe =
      std::make_unique<user::ProgramInstance>(job.image, std::move(s), windows_in(*job.acc->dram));
}

// Runs the PPE program on the PPE (its threads, libspe2 and, as the host's child, DaCS) and
// records how it ended. `own_run`: it is the run's program (its end decides the run's).
void run_ppe(CellJob& job, fw::Hal& hal, int spes, const fw::cell_program::PpeThreads::Smt& smt,
             bool own_run) {
  CellJob* state = &job;
  user::ProgramInstance& prog = *job.ppe;
  // The local stores in the program's address space (spe_ls_area_get).
  fw::cell_program::LsMapping ls(
      spes,
      [state](int spe, uint64_t at, void* dst, uint64_t n) {
        state->acc->spes[static_cast<size_t>(spe)]->local_store.peek(at, dst, n);
      },
      [state](int spe, uint64_t at, const void* src, uint64_t n) {
        state->acc->spes[static_cast<size_t>(spe)]->local_store.poke(at, src, n);
      },
      [](int spe) {
        return fw::spe_mmio::Spe{0, spe}.local_store(0);
      });
  state->ls = &ls;
  struct Unmap {
    CellJob* job;
    ~Unmap() { job->ls = nullptr; }
  } unmap{state};
  prog.add_call_hook([&ls](fw::Hal& h) { ls.sync(h); });
  fw::cell_program::PpeThreads threads(hal, prog, job.params.stack_bytes, job.params.stack_param,
                                       smt);
  fw::cell_program::PpeProgram binding(
      prog, threads.running_hal(), spes,
      [state](int spe, std::shared_ptr<const user::ProgramImage> image) {
        SpeSlot& slot = state->spes[static_cast<size_t>(spe)];
        if (slot.running) {
          throw std::runtime_error(fmt::format("SPE {} is running a program", spe));
        }
        slot.instance.reset();  // its windows leave the local store
        slot.image = std::move(image);
        if (slot.image) state->make_spu_instance(spe);
      },
      [state](int spe) {
        SpeSlot& slot = state->spes[static_cast<size_t>(spe)];
        if (slot.image) slot.running = true;  // spe_context_run is about to start it
        return static_cast<bool>(slot.image);
      },
      &ls);
  binding.provide_to(prog);
  threads.provide_to(prog);
  std::unique_ptr<fw::dacs::DacsElement> child;
  if (!own_run) {
    child = std::make_unique<fw::dacs::DacsElement>(fw::dacs::kChild, job.pair, prog,
                                                    threads.running_hal(), job.path, job.dacs);
    child->provide_to(prog);
  }
  try {
    prog.run(threads.main_hal());
  } catch (const fw::cell_program::PpeThreads::ProgramEnded&) {
    // another thread ended the program (exit, abort, a crash): end() says how
  }
  job.ppe_threads += threads.threads_created();
  job.thread_switches += threads.switches();
  job.ppe_end_ns = hs::now().to_seconds() * 1e9;
  ++job.ppe_runs;
  using End = user::ProgramInstance::End;
  const bool killed = !own_run && job.pair.kill;
  if (!own_run) {
    job.pair.exit_status = prog.exit_status();
    job.pair.end = killed                      ? DACS_STS_PROC_KILLED
                   : prog.end() != End::Exited ? DACS_STS_PROC_ABORTED
                   : prog.exit_status() != 0   ? DACS_STS_PROC_FAILED
                                               : DACS_STS_PROC_FINISHED;
    job.pair.proc = fw::dacs::Pair::Proc::Ended;
  }
  static Check& ppe_check = CheckRegistry::instance().check(kPpeEnds);
  ++ppe_check.evaluations;
  if (killed || (prog.end() == End::Exited && prog.exit_status() == 0)) return;
  const std::string why =
      prog.end() == End::Exited
          ? fmt::format("{} exited with status {}", prog.name(), prog.exit_status())
          : fmt::format("{} {}", prog.name(), prog.end_description());
  if (own_run) {
    job.record_end(why, prog.exit_status() != 0 ? prog.exit_status() : 1);
    CheckRegistry::instance().fail(kPpeEnds, hal.core_name(), why);
  } else {
    job.ends.push_back(why);  // the host program learns of it from dacs_de_wait
  }
}

// Where the host's and the Cell's DaCS reach the path: accelerator 0's SLMPM rings over its
// first PCIe link, its DMA engine, each side's control area in the other's SLMPM region.
fw::dacs::Path dacs_path() {
  namespace amap = hybrid::amap;
  namespace shm = fw::slmpm::shm;
  fw::dacs::Path path;
  path.host_slmpm.pcie = {shm::host_to_acc(0, 0, kRingSegments),
                          shm::acc_to_host(0, 0, kRingSegments),
                          fw::slmpm::Fabric::Pcie,
                          0,
                          {}};
  path.host_slmpm.accelerator = 0;
  path.acc_slmpm.pcie_from_host = shm::host_to_acc(0, 0, kRingSegments);
  path.acc_slmpm.pcie_to_host = shm::acc_to_host(0, 0, kRingSegments);
  path.acc_slmpm.engine_regs = amap::kAccDmaEngine;
  path.acc_slmpm.request_area = kDacsRequests;
  path.acc_slmpm.host_window = amap::host_via_pcie(0);
  path.acc_slmpm.accelerator = 0;
  path.acc_slmpm.receive_area = kDacsReceive;
  path.acc_slmpm.receive_slots = 1;
  path.acc_slmpm.receive_slot_bytes = 4096;
  path.host_control = amap::acc_via_pcie(0, 0) + shm::kAccRegion + kDacsControl;
  path.child_inbox = shm::kAccRegion + kDacsControl;
  path.child_control = amap::host_via_pcie(0) + shm::host_region(0) + kDacsControl;
  path.host_inbox = shm::host_region(0) + kDacsControl;
  return path;
}

}  // namespace

HYBRIDSIM_WORKLOAD(hybrid_program, HybridModel,
                   "a Cell program built with hybridsim-cellcc: the PPE program (workload.program) "
                   "on accelerator 0's PPE and the SPU programs it loads on its SPEs, or a host "
                   "program (workload.host_program) on host core 0 that starts its PPE program "
                   "with DaCS") {
  m.results_declared.declare({
      {"program", "", "the PPE program run (the last one the host program started)"},
      {"host_program", "", "the host program run (empty: none)"},
      {"program_exit_status", "",
       "the run's program's exit status: the host program's if there is one, else the PPE "
       "program's (the run's when it fails)"},
      {"abnormal_ends", "", "programs that ended otherwise than by returning 0, in order"},
      {"compute_model", "", "how host code between calls is charged: scaled, fixed or zero"},
      {"ppe_compute_cycles", "cycles", "PPE cycles charged for the PPE program's own code"},
      {"spu_compute_cycles", "cycles", "SPU cycles charged for the SPU programs' own code"},
      {"host_compute_cycles", "cycles", "host core cycles charged for the host program's code"},
      {"calls_into_the_simulator", "calls",
       "libspe2, DaCS, MFC and runtime calls the programs made"},
      {"spu_runs", "runs", "SPU program runs (spe_context_run), over all SPEs"},
      {"ppe_runs", "runs", "PPE program runs (one, or those the host program started)"},
      {"ppe_threads", "threads", "the PPE program's threads, its main thread included"},
      {"ppe_thread_switches", "switches",
       "context switches: a PPE hardware thread starting a thread other than its last"},
      {"ppe_heap_peak_bytes", "B", "the largest heap the PPE program reached"},
      {"program_time_ns", "ns", "from the run's start to the PPE program's end"},
      {"host_program_time_ns", "ns", "from the run's start to the host program's end"},
      {"dacs_calls", "calls", "DaCS calls, host and PPE together"},
      {"dacs_host_smt", "transfers",
       "host puts and sends into the Cell that went by shared-memory transfer (mode selection)"},
      {"dacs_host_dma", "transfers",
       "host puts, sends and gets that went by the accelerator's DMA engine (mode selection)"},
      {"dacs_child_dma", "transfers", "PPE puts, gets and sends on its DMA engine"},
      {"dacs_bytes_to_cell", "B", "bytes DaCS moved from host memory to the Cell's"},
      {"dacs_bytes_to_host", "B", "bytes DaCS moved from the Cell's memory to the host's"},
      {"dacs_buffer_overflows", "messages", "sends larger than the matching receive buffer"},
      {"registration_cache_hits", "registrations",
       "host buffers DaCS registered that the registration cache already held"},
      {"registration_cache_misses", "registrations",
       "host buffers DaCS registered through the OS (cache misses, or every one with "
       "workload.cache=none)"},
  });
  ParamScope p("workload");
  const std::string program_param = p.name("program");
  const std::string host_param = p.name("host_program");
  const std::string path = p.text("program", "", "the PPE program hybridsim-cellcc linked");
  const std::string host_path =
      p.text("host_program", "",
             "the host program hybridsim-cellcc --target=host linked (it starts its PPE "
             "program with dacs_de_start; leave workload.program empty)");
  const std::string args_text =
      p.text("args", "[]", "the program's arguments, a JSON list of strings (argv[1...])");
  auto job = std::make_shared<CellJob>();
  job->spu_stack_param = p.name("spu_stack_size");
  job->spu_stack = static_cast<uint64_t>(
      p.integer("spu_stack_size", 64 * 1024, "B",
                "each SPU program's stack, in its local store (a guard page below it catches an "
                "overflow)",
                Range::between(8 * 1024, 192 * 1024)));
  const double timeslice_ns = p.real(
      "ppe_timeslice", 10000, "ns",
      "how long a PPE program's thread runs before a ready thread may take its hardware thread "
      "(0: until it blocks)",
      Range::between(0, 1e9));
  const double switch_ns = p.real(
      "ppe_context_switch", 1000, "ns",
      "the operating system's cost of putting another thread on a PPE hardware thread (an "
      "estimate: saving and restoring the general, floating-point and vector registers and the "
      "scheduler's path, a few thousand PPE cycles)",
      Range::between(0, 1e9));
  const double smt_share = p.real(
      "ppe_smt_share", 0.5, "",
      "the share of the PPE's issue rate each hardware thread gets while both compute (0.5: the "
      "PPE issues from its two threads alternately)",
      Range::between(0.01, 1));
  const bool use_cache =
      p.choice("cache", "cache",
               "a host program's DaCS registers host buffers through the registration cache, or "
               "through the OS every time",
               {"cache", "none"}) == "cache";
  if (path.empty() && host_path.empty()) {
    throw InputError(fmt::format(
        "parameter '{}': the hybrid_program workload needs a PPE program (hybridsim run "
        "hybrid_program --set {}=APP) or a host program (--set {}=HOSTAPP)",
        program_param, program_param, host_param));
  }
  if (!path.empty() && !host_path.empty()) {
    throw InputError(
        fmt::format("parameters '{}' and '{}': a host program starts its PPE program itself "
                    "(dacs_de_start); give only {}",
                    program_param, host_param, host_param));
  }
  try {
    const auto j = nlohmann::json::parse(args_text);
    if (!j.is_array()) throw std::invalid_argument("not a list");
    for (const auto& a : j) {
      if (!a.is_string()) throw std::invalid_argument("not a list of strings");
      job->args.push_back(a.get<std::string>());
    }
  } catch (const std::exception& e) {
    throw InputError(fmt::format("parameter '{}' = {}: expects a JSON list of strings ({})",
                                 p.name("args"), args_text, e.what()));
  }
  const auto thresholds = declare_slmpm_thresholds();
  const auto os_cfg = fw::os::OsConfig::declare("node0.host.os");
  const auto cache_cfg = fw::slmpm::CacheConfig::declare("node0.host.slmpm.cache");
  job->params = declare_user_program_params();
  const bool three_levels = !host_path.empty();
  if (three_levels) {
    job->host_image = read_program(host_path, host_param);
    if (!job->host_image->exports("hybridsim_host_program")) {
      throw InputError(fmt::format(
          "parameter '{}': {} is not a host program (link it with hybridsim-cellcc "
          "--target=host{})",
          host_param, host_path,
          job->host_image->exports("hybridsim_ppe_program")
              ? "; a PPE program runs with workload.program, or is started by a host program"
              : ""));
    }
  } else {
    job->image = read_program(path, program_param);
    if (!job->image->exports("hybridsim_ppe_program")) {
      throw InputError(fmt::format(
          "parameter '{}': {} is not a PPE program (link it with hybridsim-cellcc --target=ppu{})",
          program_param, path,
          job->image->exports("hybridsim_spu_program")
              ? "; an SPU program is embedded with --embed and loaded by the PPE program"
          : job->image->exports("hybridsim_host_program")
              ? "; a host program runs with workload.host_program"
              : ""));
    }
  }
  job->output = std::make_unique<user::ProgramOutput>(stdout, stderr, job->params.labels);
  auto& acc = *m.node.accelerators[0];
  job->acc = &acc;
  const uint64_t dram = acc.dram->size();
  if (dram <= kPpeRegionBase + (uint64_t{16} << 20)) {
    throw InputError(
        fmt::format("the accelerator's DRAM ({} MiB) leaves no room for the PPE "
                    "program above {} MiB",
                    dram >> 20, kPpeRegionBase >> 20));
  }
  if (!three_levels) {
    try {
      make_ppe(*job, job->args);
    } catch (const std::runtime_error& e) {
      throw InputError(fmt::format("parameter '{}': {}", program_param, e.what()));
    }
  }
  CheckRegistry::instance().check(kPpeEnds);
  CheckRegistry::instance().check(kSpuEnds);
  const int spes = static_cast<int>(acc.spes.size());
  job->spes.resize(static_cast<size_t>(spes));
  CellJob* state = job.get();
  for (int i = 0; i < spes; ++i) {
    Core& spu = acc.spes[static_cast<size_t>(i)]->spu;
    spu.set_execution(Core::Execution::Fiber);
    spu.set_stack(job->spu_stack, true);
    spu.set_firmware([state, i](fw::Hal& hal) { state->spu_firmware(hal, i); });
    // The PPE program's pointers are effective addresses (sw/cell/program/ppe_program.h).
    acc.spes[static_cast<size_t>(i)]->mfc.set_translation([state](uint64_t ea, uint64_t bytes) {
      if (!state->ppe) return ea;
      const auto* ptr = reinterpret_cast<const void*>(ea);
      const uint64_t n = std::max<uint64_t>(bytes, 1);
      if (const auto at = state->ppe->windows().to_simulated(ptr, n)) return *at;
      if (state->ls) {
        if (const auto real = state->ls->to_real(ptr, n)) return *real;
      }
      return ea;
    });
  }
  acc.ppe->set_execution(Core::Execution::Fiber);
  acc.ppe->set_stack(job->params.stack_bytes, true);
  fw::cell_program::PpeThreads::Smt smt;
  smt.share = smt_share;
  smt.timeslice_cycles = static_cast<uint64_t>(timeslice_ns * 1e-9 * acc.clock_hz);
  smt.switch_cycles = static_cast<uint64_t>(switch_ns * 1e-9 * acc.clock_hz);
  // The process is over: SPEs with nothing running are woken to finish.
  auto release_spes = [state, spes](fw::Hal& hal) {
    state->ppe_done = true;
    for (int i = 0; i < spes; ++i) {
      if (state->spes[static_cast<size_t>(i)].running) continue;
      hal.reg_write(fw::spe_mmio::Spe{0, i}.ps(cell::spe::ps::kSpuRunCntl), 1);
    }
  };
  if (!three_levels) {
    acc.ppe->set_firmware([state, spes, smt, release_spes](fw::Hal& hal) {
      run_ppe(*state, hal, spes, smt, true);
      release_spes(hal);
    });
  } else {
    if (!m.node.accelerator_dma(0)) {
      throw InputError(
          "a host program's DaCS needs a DMA engine on the accelerator (node0.dma_engines)");
    }
    m.node.host->dram->require(kHostRegionBase + kHostRegionBytes,
                               fmt::format("the host program's memory at {:#x}", kHostRegionBase));
    m.node.accelerators[0]->dram->require(
        kDacsReceive + 4096, fmt::format("DaCS's DMA request area at {:#x}", kDacsRequests));
    require_slmpm_regions(m, 1);
    job->os = std::make_unique<fw::os::OsModel>(os_cfg);
    if (use_cache) job->cache = std::make_unique<fw::slmpm::RegistrationCache>(*job->os, cache_cfg);
    job->path = dacs_path();
    job->path.host_slmpm.thresholds = thresholds;
    job->path.os = job->os.get();
    job->path.cache = job->cache.get();
    job->pair.accelerator = 0;
    job->pair.child_de = 0x100;  // opaque to programs
    job->pair.check_program = [state](const std::string& ppe) -> DACS_ERR_T {
      std::shared_ptr<const user::ProgramImage> image;
      try {
        image = read_program(ppe, "dacs_de_start");
      } catch (const std::exception&) {
        return DACS_ERR_NOT_FOUND;
      }
      if (!image->exports("hybridsim_ppe_program")) return DACS_ERR_INVALID_PROG;
      state->image = std::move(image);
      state->ppe_path = ppe;
      return DACS_SUCCESS;
    };
    user::InstanceSetup hs;
    hs.name = fmt::format("the host program ({})", job->host_image->name());
    hs.label = "host";
    hs.args = job->args;
    hs.region_base = kHostRegionBase;
    hs.region_bytes = kHostRegionBytes;
    hs.stack_bytes = job->params.stack_bytes;
    hs.compute = job->params.compute;
    hs.output = job->output.get();
    try {
      job->host = std::make_unique<user::ProgramInstance>(job->host_image, std::move(hs),
                                                          windows_in(*m.node.host->dram));
    } catch (const std::runtime_error& e) {
      throw InputError(fmt::format("parameter '{}': {}", host_param, e.what()));
    }
    CheckRegistry::instance().check(kHostEnds);
    Core& host_core = *m.node.host->core_list[0];
    host_core.set_execution(Core::Execution::Fiber);
    host_core.set_bus_may_block(true);  // its DaCS crosses the links to the Cell
    acc.ppe->set_bus_may_block(true);   // and the PPE's to the host
    host_core.set_stack(job->params.stack_bytes, true);
    host_core.set_firmware([state](fw::Hal& hal) {
      user::ProgramInstance& prog = *state->host;
      {
        fw::dacs::DacsElement host(fw::dacs::kHost, state->pair, prog, hal, state->path,
                                   state->dacs);
        host.provide_to(prog);
        prog.run(hal);
      }  // the host element's end tells the child
      state->host_end_ns = hs::now().to_seconds() * 1e9;
      static Check& host_check = CheckRegistry::instance().check(kHostEnds);
      ++host_check.evaluations;
      using End = user::ProgramInstance::End;
      if (prog.end() != End::Exited || prog.exit_status() != 0) {
        const std::string why =
            prog.end() == End::Exited
                ? fmt::format("{} exited with status {}", prog.name(), prog.exit_status())
                : fmt::format("{} {}", prog.name(), prog.end_description());
        state->record_end(why, prog.exit_status() != 0 ? prog.exit_status() : 1);
        CheckRegistry::instance().fail(kHostEnds, hal.core_name(), why);
      }
    });
    // The PPE runs each program the host starts, until the host program has ended.
    acc.ppe->set_firmware([state, spes, smt, release_spes](fw::Hal& hal) {
      using Proc = fw::dacs::Pair::Proc;
      constexpr uint64_t kIdlePoll = 1000;  // cycles between looks at the start request
      // The Cell's side of the SLMPM, for every PPE program the host starts.
      fw::slmpm::AcceleratorSlmpm service(hal, state->path.acc_slmpm, nullptr,
                                          state->path.poll_cycles);
      state->path.acc_service = &service;
      for (;;) {
        while (state->pair.proc != Proc::Starting && !state->pair.host_ended) {
          hal.compute(kIdlePoll);
        }
        if (state->pair.proc != Proc::Starting) break;
        state->pair.proc = Proc::Running;
        try {
          make_ppe(*state, state->pair.args);
        } catch (const std::runtime_error& e) {
          state->ends.push_back(fmt::format("{}: {}", state->ppe_path, e.what()));
          state->pair.exit_status = 1;
          state->pair.end = DACS_STS_PROC_ABORTED;
          state->pair.proc = Proc::Ended;
          continue;
        }
        run_ppe(*state, hal, spes, smt, false);
      }
      state->path.acc_service = nullptr;
      release_spes(hal);
    });
  }
  m.results = [job, path, host_path] {
    nlohmann::json r;
    r["program"] = host_path.empty() ? path : job->ppe_path;
    r["host_program"] = host_path;
    r["program_exit_status"] = job->exit_status;
    r["abnormal_ends"] = job->ends;
    r["compute_model"] = user::compute_kind_name(job->params.compute.kind);
    uint64_t spu_compute = 0, calls = job->earlier_ppe_calls + (job->ppe ? job->ppe->calls() : 0);
    int runs = 0;
    for (const auto& slot : job->spes) {
      spu_compute += slot.compute_cycles;
      calls += slot.calls;
      runs += slot.runs;
    }
    if (job->host) calls += job->host->calls();
    r["ppe_compute_cycles"] =
        job->earlier_ppe_compute + (job->ppe ? job->ppe->compute_cycles() : 0);
    r["spu_compute_cycles"] = spu_compute;
    r["host_compute_cycles"] = job->host ? job->host->compute_cycles() : 0;
    r["calls_into_the_simulator"] = calls;
    r["spu_runs"] = runs;
    r["ppe_runs"] = job->ppe_runs;
    r["ppe_threads"] = job->ppe_threads;
    r["ppe_thread_switches"] = job->thread_switches;
    const auto* h = job->ppe ? job->ppe->heap_if_started() : nullptr;
    r["ppe_heap_peak_bytes"] = std::max<uint64_t>(job->earlier_ppe_heap, h ? h->peak() : 0);
    r["program_time_ns"] = job->ppe_end_ns;
    r["host_program_time_ns"] = job->host_end_ns;
    r["dacs_calls"] = job->dacs.calls;
    r["dacs_host_smt"] = job->dacs.host_smt;
    r["dacs_host_dma"] = job->dacs.host_dma;
    r["dacs_child_dma"] = job->dacs.child_dma;
    r["dacs_bytes_to_cell"] = job->dacs.bytes_to_child;
    r["dacs_bytes_to_host"] = job->dacs.bytes_to_host;
    r["dacs_buffer_overflows"] = job->dacs.overflows;
    r["registration_cache_hits"] = job->cache ? job->cache->counters().hits : 0;
    r["registration_cache_misses"] = job->cache
                                         ? job->cache->counters().misses
                                         : (job->os ? job->os->counters().register_calls : 0);
    return r;
  };
}

}  // namespace hs::runner
