// User programs (sw/user/): C and C++ programs built by the wrappers' engine (testbench/cc/)
// and run as private instances on torus cores. Each instance has its own globals, statics,
// thread-local variables, argv, heap and C-library state; its memory is host windows of its
// node's simulated memory (both sides see each other's writes); host code is charged by the
// compute model; output is routed by line with labels; and every way a program ends (return,
// exit with handlers, abort, a failed assertion, SIGSEGV, SIGFPE, a stack overflow, an
// uncaught C++ exception) ends that instance alone, named, while the run goes on.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "hw/torus/node/torus_machine.h"
#include "sw/user/program_image.h"
#include "sw/user/program_instance.h"
#include "testbench/cc/program_cc.h"
#include "testbench/support/cli_run.h"
#include "testbench/support/node_fixture.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

using hs::testing::file_text;
using hs::testing::set_param;
using hs::testing::temp_path;
using hs::testing::write_temp_file;
namespace user = hs::user;

namespace {

constexpr uint64_t kRegion = 0x1000'0000;  // each instance's simulated memory: 128 MiB
constexpr uint64_t kRegionBytes = 0x0800'0000;
constexpr uint64_t kStack = 1 << 20;

// Builds `source` (C, or C++ when `cxx`) into a module with the wrappers' engine.
std::string build(const std::string& name, const std::string& source, bool cxx = false,
                  std::vector<std::string> flags = {"-g", "-O1"}) {
  const std::string src = write_temp_file(name + (cxx ? ".cpp" : ".c"), source);
  const std::string out = temp_path(name);
  hs::cc::Flavour f{cxx ? "test-c++" : "test-cc", cxx, {}, {}, {"mpirun", "-n", "1"}};
  std::vector<std::string> args = flags;
  args.insert(args.end(), {src, "-o", out});
  const hs::cc::Plan p = hs::cc::plan(f, hs::cc::this_layout(), args);
  EXPECT_EQ(hs::cc::execute(f, p), 0) << name;
  return out;
}

// A 2x1x1 torus whose cores run program instances, one per core, output captured in files.
struct Machine {
  std::unique_ptr<hs::torus::TorusMachine> torus;
  std::string out_path = temp_path("stdout.txt"), err_path = temp_path("stderr.txt");
  std::FILE* out = std::fopen(out_path.c_str(), "w+");
  std::FILE* err = std::fopen(err_path.c_str(), "w+");
  std::unique_ptr<user::ProgramOutput> output;
  std::vector<std::unique_ptr<user::ProgramInstance>> instances;
  std::vector<hs::Core*> cores;

  explicit Machine(bool labels = true, user::ComputeModel compute = fixed(0)) : compute_(compute) {
    set_param("torus.network.x", 2);
    set_param("torus.network.y", 1);
    set_param("torus.network.z", 1);
    torus = std::make_unique<hs::torus::TorusMachine>("torus");
    hs::ParamRegistry::instance().finalize();
    output = std::make_unique<user::ProgramOutput>(out, err, labels);
  }
  ~Machine() {
    instances.clear();
    std::fclose(out);
    std::fclose(err);
  }
  static user::ComputeModel fixed(uint64_t cycles) {
    user::ComputeModel m;
    m.kind = cycles ? user::ComputeKind::Fixed : user::ComputeKind::Zero;
    m.fixed_cycles = cycles;
    return m;
  }
  // Instance i on node i % 2, core i / 2, with its region in that node's memory.
  user::ProgramInstance& add(const std::string& program, std::vector<std::string> args) {
    const int i = static_cast<int>(instances.size());
    auto& node = torus->node(i % 2);
    hs::Core* core = node.core_list[static_cast<size_t>(i / 2)].get();
    hs::Memory* mem = node.dram.get();
    user::InstanceSetup s;
    s.name = "instance " + std::to_string(i);
    s.label = std::to_string(i);
    s.args = std::move(args);
    s.region_base = kRegion + static_cast<uint64_t>(i / 2) * kRegionBytes;
    s.region_bytes = kRegionBytes;
    s.stack_bytes = kStack;
    s.compute = compute_;
    s.output = output.get();
    user::WindowMapper mapper{
        [mem](const user::MemoryWindow& w) {
          mem->map_host_window(w.simulated, reinterpret_cast<void*>(w.host), w.bytes, w.writable);
        },
        [mem](const user::MemoryWindow& w) { mem->unmap_host_window(w.simulated); }};
    instances.push_back(std::make_unique<user::ProgramInstance>(user::ProgramImage::read(program),
                                                                std::move(s), std::move(mapper)));
    user::ProgramInstance* inst = instances.back().get();
    core->set_stack(kStack, true);
    core->set_firmware([inst](hs::fw::Hal& hal) { inst->run(hal); });
    cores.push_back(core);
    return *inst;
  }
  void run() { sc_core::sc_start(); }
  std::string stdout_text() {
    std::fflush(out);
    return file_text(out_path);
  }
  std::string stderr_text() {
    std::fflush(err);
    return file_text(err_path);
  }

 private:
  user::ComputeModel compute_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kPrivate = R"(
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hybridsim.h>
int counter = 0;
static int hidden = 100;
__thread int tls = 7;
int main(int argc, char** argv) {
  srand(1);
  int r[3];
  for (int i = 0; i < 3; ++i) {
    counter++;
    hidden++;
    tls++;
    r[i] = rand();
    hybridsim_compute(1000); /* the other instance runs here */
  }
  char* p = malloc(64);
  strcpy(p, argv[1]);
  errno = 0;
  printf("arg=%s argc=%d counter=%d hidden=%d tls=%d rand=%d,%d,%d\n", p, argc, counter, hidden,
         tls, r[0], r[1], r[2]);
  fprintf(stderr, "to stderr %s", p);
  write(1, "raw write\n", 10);
  return atoi(argv[1]);
}
)";

}  // namespace

TEST(UserProgram, EachInstanceHasItsOwnGlobalsStaticsThreadLocalsArgvHeapAndRand) {
  const std::string prog = build("private", kPrivate);
  Machine m;
  auto& a = m.add(prog, {"3"});
  auto& b = m.add(prog, {"4"});
  m.run();
  ASSERT_TRUE(a.ended() && b.ended());
  EXPECT_EQ(a.end(), user::ProgramInstance::End::Exited);
  EXPECT_EQ(a.exit_status(), 3);
  EXPECT_EQ(b.exit_status(), 4);
  srand(1);
  const int r0 = rand(), r1 = rand(), r2 = rand();
  const std::string out = m.stdout_text();
  for (const char* who : {"0", "1"}) {
    const std::string arg = who[0] == '0' ? "3" : "4";
    EXPECT_TRUE(contains(out, fmt::format("[{}] arg={} argc=2 counter=3 hidden=103 tls=10 "
                                          "rand={},{},{}\n",
                                          who, arg, r0, r1, r2)))
        << out;
    EXPECT_TRUE(contains(out, fmt::format("[{}] raw write\n", who))) << out;
  }
  // A partial last line is ended when its instance ends.
  const std::string err = m.stderr_text();
  EXPECT_TRUE(contains(err, "[0] to stderr 3\n")) << err;
  EXPECT_TRUE(contains(err, "[1] to stderr 4\n")) << err;
}

namespace {
const char* kEnds = R"(
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <hybridsim.h>
static void bye(void) { printf("exit handler ran\n"); }
static int deep(int n) { volatile char pad[1024]; pad[0] = (char)n; return n > 0 ? deep(n - 1) + pad[0] : 0; }
static void nested_exit(void) { atexit(bye); exit(3); }
int main(int argc, char** argv) {
  hybridsim_compute(100);
  switch (argv[1][0]) {
    case 'r': return 5;
    case 'e': nested_exit(); break;
    case 'a': abort();
    case 's': assert(argc == 99);
    case 'v': *(volatile int*)16 = 1; break; /* line 16 */
    case 'o': return deep(1 << 20);
    case 'f': { volatile int n = 100, z = 0; return n / z; }
  }
  return 0;
}
)";
}  // namespace

TEST(UserProgram, EveryWayAProgramEndsEndsThatInstanceAloneAndNamesIt) {
  const std::string prog = build("ends", kEnds);
  Machine m;
  std::vector<user::ProgramInstance*> p;
  for (const char* mode : {"r", "e", "a", "s", "v", "o", "f"}) p.push_back(&m.add(prog, {mode}));
  m.run();
  for (auto* c : m.cores) EXPECT_TRUE(c->finished());
  using End = user::ProgramInstance::End;
  EXPECT_EQ(p[0]->end(), End::Exited);
  EXPECT_EQ(p[0]->exit_status(), 5);
  EXPECT_EQ(p[1]->end(), End::Exited);
  EXPECT_EQ(p[1]->exit_status(), 3);
  EXPECT_TRUE(contains(m.stdout_text(), "[1] exit handler ran\n")) << m.stdout_text();
  EXPECT_EQ(p[2]->end(), End::Aborted);
  EXPECT_EQ(p[2]->end_description(), "aborted: abort() called");
  EXPECT_EQ(p[3]->end(), End::Aborted);
  EXPECT_TRUE(contains(p[3]->end_description(), "Assertion `argc == 99' failed."))
      << p[3]->end_description();
  EXPECT_TRUE(contains(m.stderr_text(), "[3] ")) << m.stderr_text();
  EXPECT_EQ(p[4]->end(), End::Crashed);
  EXPECT_EQ(p[4]->exit_status(), 128 + SIGSEGV);
  const std::string segv = p[4]->end_description();
  EXPECT_TRUE(contains(segv, "crashed: SIGSEGV (segmentation fault) at address 0x10")) << segv;
  EXPECT_TRUE(contains(segv, "in main at ends.c:16")) << segv;
  EXPECT_EQ(p[5]->end(), End::Crashed);
  EXPECT_TRUE(contains(p[5]->end_description(), "crashed: stack overflow (its stack is 1024 KiB)"))
      << p[5]->end_description();
  EXPECT_EQ(p[6]->end(), End::Crashed);
  EXPECT_TRUE(contains(p[6]->end_description(), "SIGFPE")) << p[6]->end_description();
}

namespace {
const char* kWindows = R"(
#include <stdio.h>
#include <stdlib.h>
#include <hybridsim.h>
int global[4] = {11, 22, 33, 44};
volatile int mailbox = 0;
int main(void) {
  int on_stack[2] = {55, 66};
  int* heap = malloc(2 * sizeof(int));
  heap[0] = 77;
  printf("%p %p %p %p\n", (void*)global, (void*)&mailbox, (void*)on_stack, (void*)heap);
  fflush(stdout);
  hybridsim_compute(100000); /* the test reads and writes simulated memory here */
  printf("mailbox=%d\n", mailbox);
  return 0;
}
)";
}  // namespace

TEST(UserProgram, GlobalsStackAndHeapAreHostWindowsOfTheNodesSimulatedMemory) {
  const std::string prog = build("windows", kWindows);
  Machine m(false);
  auto& inst = m.add(prog, {});
  std::string seen;
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  sc_core::sc_event half;
  opts.set_sensitivity(&half);
  sc_core::sc_spawn(
      [&] {
        std::istringstream in(m.stdout_text());
        std::vector<void*> ptr(4);
        for (auto& p : ptr) in >> p;
        hs::Memory& mem = *m.torus->node(0).dram;
        const int expect[4] = {11, 55, 77, 0};
        for (int k : {0, 2, 3}) {
          const auto sim = inst.windows().to_simulated(ptr[static_cast<size_t>(k)], 4);
          ASSERT_TRUE(sim) << k;
          EXPECT_GE(*sim, kRegion);
          EXPECT_LT(*sim, kRegion + kRegionBytes);
          int v = 0;
          mem.peek(*sim, &v, 4);
          seen += std::to_string(v) + " ";
          EXPECT_EQ(v, expect[k == 0 ? 0 : k == 2 ? 1 : 2]);
        }
        // Written at the mailbox's simulated address, as a DMA engine would.
        const auto sim = inst.windows().to_simulated(ptr[1], 4);
        ASSERT_TRUE(sim);
        const int v = 1234;
        mem.poke(*sim, &v, 4);
      },
      "probe", &opts);
  half.notify(50, sc_core::SC_US);
  m.run();
  EXPECT_EQ(seen, "11 55 77 ");
  EXPECT_TRUE(contains(m.stdout_text(), "mailbox=1234\n")) << m.stdout_text();
  // Code and constants are read-only windows.
  bool read_only = false;
  for (const auto& w : inst.windows().all())
    read_only |= !w.writable && w.what == "code and constants";
  EXPECT_TRUE(read_only);
}

namespace {
const char* kCompute = R"(
#include <hybridsim.h>
int main(void) {
  hybridsim_compute(1000);
  hybridsim_compute(1000);
  return 0;
}
)";
}  // namespace

TEST(UserProgram, TheFixedComputeModelChargesEachStretchOfProgramCode) {
  const std::string prog = build("compute", kCompute);
  Machine m(false, Machine::fixed(500));
  auto& inst = m.add(prog, {});
  m.run();
  // Three stretches of program code (before, between and after the calls) and two calls.
  EXPECT_EQ(inst.compute_cycles(), 3 * 500u + 2 * 1000u);
  EXPECT_EQ(m.cores[0]->compute_cycles(), 3 * 500u + 2 * 1000u);
}

TEST(UserProgram, TheZeroComputeModelChargesOnlyTheProgramsOwnEstimates) {
  const std::string prog = build("compute", kCompute);
  Machine m(false, Machine::fixed(0));
  auto& inst = m.add(prog, {});
  m.run();
  EXPECT_EQ(inst.compute_cycles(), 2000u);
}

namespace {
const char* kBusy = R"(
#include <hybridsim.h>
volatile double sink;
int main(void) {
  double x = 0;
  for (long i = 0; i < 20000000; ++i) x += (double)i * 1e-9;
  sink = x;
  hybridsim_compute(1);
  return 0;
}
)";
}  // namespace

TEST(UserProgram, TheScaledComputeModelChargesHostTimeTimesTheSlowdown) {
  const std::string prog = build("busy", kBusy);
  user::ComputeModel scaled;
  scaled.kind = user::ComputeKind::Scaled;
  scaled.slowdown = 4.0;
  Machine m(false, scaled);
  auto& inst = m.add(prog, {});
  m.run();
  // 20 M additions take milliseconds of host time: at 850 MHz and 4x, millions of cycles.
  EXPECT_GT(inst.compute_cycles(), 1'000'000u);
  EXPECT_LT(inst.compute_cycles(), 20'000'000'000u);
}

namespace {
const char* kCxx = R"(
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include <hybridsim.h>
struct Loud {
  ~Loud() { std::cout << "static destructor ran" << std::endl; }
};
static Loud loud;
thread_local int tl = 1;
int main(int argc, char** argv) {
  std::vector<std::unique_ptr<std::vector<double>>> v;
  for (int i = 0; i < 100; ++i) v.push_back(std::make_unique<std::vector<double>>(10, 1.0));
  try {
    throw std::runtime_error("caught");
  } catch (const std::exception& e) {
    std::cout << "exception " << e.what() << std::endl;
  }
  tl += argc;
  hybridsim_compute(10);
  std::cout << "cout " << argv[1] << " tl=" << tl << " strings=" << v.size() << "\n";
  std::cerr << "cerr " << argv[1] << std::endl;
  if (std::string(argv[1]) == "throw") throw std::logic_error("uncaught");
  return 0;
}
)";
}  // namespace

TEST(UserProgram, CxxProgramsHaveTheirOwnStreamsHeapStaticDestructorsAndExceptions) {
  const std::string prog = build("cxx", kCxx, true);
  Machine m;
  auto& a = m.add(prog, {"one"});
  auto& b = m.add(prog, {"throw"});
  m.run();
  const std::string out = m.stdout_text();
  EXPECT_TRUE(contains(out, "[0] exception caught\n")) << out;
  EXPECT_TRUE(contains(out, "[0] cout one tl=3 strings=100\n")) << out;
  EXPECT_TRUE(contains(out, "[1] cout throw tl=3 strings=100\n")) << out;
  EXPECT_TRUE(contains(out, "[0] static destructor ran\n")) << out;
  EXPECT_TRUE(contains(m.stderr_text(), "[1] cerr throw\n")) << m.stderr_text();
  EXPECT_EQ(a.end(), user::ProgramInstance::End::Exited);
  EXPECT_EQ(b.end(), user::ProgramInstance::End::Aborted);
  EXPECT_EQ(b.end_description(),
            "aborted: terminate called after throwing an instance of 'std::logic_error'");
  // Their heaps are their own: the blocks the program's code allocated came from its arena.
  EXPECT_GT(a.heap().peak(), 100u * 80u);
}

TEST(UserProgram, WhatIsNotAProgramModuleIsRefusedNamingTheFileAndWhy) {
  const auto refusal = [](const std::string& path) {
    try {
      user::ProgramImage::read(path);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(contains(refusal(temp_path("missing")), "cannot read the program"));
  const std::string text = write_temp_file("text", "hello\n");
  EXPECT_TRUE(contains(refusal(text), "not an ELF file; build it with hybridsim-mpicc"))
      << refusal(text);
  const std::string src = write_temp_file("plain.c", "int main(void) { return 0; }\n");
  const std::string exe = temp_path("plain"), obj = temp_path("plain.o"),
                    so = temp_path("plain.so");
  ASSERT_EQ(std::system(("cc -o " + exe + " " + src).c_str()), 0);
  ASSERT_EQ(std::system(("cc -c -o " + obj + " " + src).c_str()), 0);
  ASSERT_EQ(std::system(("cc -shared -fPIC -o " + so + " " + src).c_str()), 0);
  EXPECT_TRUE(contains(refusal(exe), "an ordinary executable, not a program module"))
      << refusal(exe);
  EXPECT_TRUE(contains(refusal(obj), "an object file, not a program module")) << refusal(obj);
  EXPECT_TRUE(contains(refusal(so), "without the hybridsim program runtime")) << refusal(so);
}

TEST(UserProgramBuild, TheWrapperAddsTheModuleFlagsOnlyWhenLinking) {
  hs::cc::Flavour f{"hybridsim-test", false, {"/inc"}, {"/lib/libapi.a"}, {"run", "-x"}};
  const auto layout = hs::cc::this_layout();
  const auto joined = [](const hs::cc::Plan& p) {
    std::string s;
    for (const auto& a : p.commands.back()) s += a + " ";
    return s;
  };
  const auto compile = hs::cc::plan(f, layout, {"-c", "-O2", "-DX=1", "a.c", "-o", "a.o"});
  ASSERT_EQ(compile.commands.size(), 1u);
  EXPECT_TRUE(
      contains(joined(compile), "-I/inc -I" + layout.user_include + " -DHYBRIDSIM=1 -fPIC"));
  EXPECT_FALSE(contains(joined(compile), "-shared"));
  const auto link = hs::cc::plan(f, layout, {"a.o", "b.c", "-lm", "-o", "prog"});
  ASSERT_EQ(link.commands.size(), 2u);  // the entry, then the link
  EXPECT_TRUE(contains(joined(link), "a.o b.c -lm -o prog -shared -Wl,-Bsymbolic"));
  EXPECT_TRUE(
      contains(joined(link), "-Wl,--whole-archive /lib/libapi.a " + layout.runtime_archive));
  EXPECT_EQ(link.temporaries.size(), 1u);  // the entry's object, made and removed by execute()
  EXPECT_TRUE(contains(joined({{link.commands.front()}, {}, {}, false}),
                       "-DHS_LAUNCH_ARGS=\"run\",\"-x\""));
  f.launch.clear();  // a flavour without a launch command: no entry
  EXPECT_EQ(hs::cc::plan(f, layout, {"a.o", "-o", "prog"}).commands.size(), 1u);
  const auto version = hs::cc::plan(f, layout, {"--version"});
  EXPECT_EQ(joined(version), layout.c_compiler + " --version ");
  EXPECT_TRUE(contains(hs::cc::plan(f, layout, {"-static", "a.c"}).error,
                       "hybridsim-test: -static: programs are loaded into the simulator as "
                       "modules"));
  EXPECT_TRUE(
      contains(hs::cc::plan(f, layout, {"-fopenmp", "a.c"}).error, "threads are not modelled"));
  EXPECT_TRUE(hs::cc::plan(f, layout, {"-show", "a.c"}).show_only);
}
