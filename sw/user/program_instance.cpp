#include "sw/user/program_instance.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fmt/format.h>
#include <getopt.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>

#include "sw/user/crash_guard.h"
#include "tlm/kernel/fiber.h"

namespace hs::user {

namespace {

constexpr uint64_t kPage = MemoryWindows::kPage;

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (segmentation fault)";
    case SIGBUS:
      return "SIGBUS (bus error)";
    case SIGFPE:
      return "SIGFPE (arithmetic exception)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    case SIGABRT:
      return "SIGABRT (aborted)";
  }
  return "a signal";
}

// Each instance holds a file descriptor for its module copy for the run: the loader knows a
// loaded copy by the name it was opened with ("/proc/self/fd/N"), so that name must stay
// unique while the copy is loaded. Large jobs need more descriptors than the usual soft limit.
void raise_descriptor_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

struct PhdrSearch {
  uintptr_t base;
  std::vector<ElfW(Phdr)> phdrs;
  bool found = false;
};

int find_phdrs(dl_phdr_info* info, size_t, void* data) {
  auto* s = static_cast<PhdrSearch*>(data);
  if (info->dlpi_addr != s->base) return 0;
  s->phdrs.assign(info->dlpi_phdr, info->dlpi_phdr + info->dlpi_phnum);
  s->found = true;
  return 1;
}

}  // namespace

// ---- what is switched with the instance ----

struct ProgramInstance::LibcState {
  struct Getopt {
    int ind = 1, err = 1, opt = '?';
    char* arg = nullptr;
  };
  Getopt program_getopt, simulator_getopt;
  std::streambuf* simulator_out = nullptr;
  std::streambuf* simulator_err = nullptr;
  std::streambuf* simulator_log = nullptr;
  bool program_active = false;

  static Getopt save_getopt() { return {optind, opterr, optopt, optarg}; }
  static void restore_getopt(const Getopt& g) {
    optind = g.ind;
    opterr = g.err;
    optopt = g.opt;
    optarg = g.arg;
  }
};

// The program's std::cout, std::cerr and std::clog while its code runs.
class ProgramInstance::StreamBuf : public std::streambuf {
 public:
  StreamBuf(ProgramOutput::Streams& streams, int stream) : streams_(streams), stream_(stream) {}

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    streams_.write(stream_, &ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    streams_.write(stream_, s, static_cast<size_t>(n));
    return n;
  }

 private:
  ProgramOutput::Streams& streams_;
  int stream_;
};

// ---- loading ----

ProgramInstance::ProgramInstance(std::shared_ptr<const ProgramImage> image, InstanceSetup setup,
                                 WindowMapper mapper)
    : image_(std::move(image)),
      setup_(std::move(setup)),
      mapper_(std::move(mapper)),
      windows_(setup_.region_base, setup_.region_bytes),
      streams_(*setup_.output, setup_.label),
      libc_(std::make_unique<LibcState>()),
      cout_buf_(std::make_unique<StreamBuf>(streams_, HS_STDOUT)),
      cerr_buf_(std::make_unique<StreamBuf>(streams_, HS_STDERR)) {
  install_crash_guard();
  raise_descriptor_limit();
  // A private copy: an anonymous file the loader sees as a new object.
  memfd_ = memfd_create(image_->name().c_str(), MFD_CLOEXEC);
  if (memfd_ < 0) {
    throw std::runtime_error(fmt::format("{}: cannot make a copy of {}: {}", name(), image_->path(),
                                         std::strerror(errno)));
  }
  const std::string& bytes = image_->bytes();
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(memfd_, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      throw std::runtime_error(
          fmt::format("{}: cannot copy {}: {}", name(), image_->path(), std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
  const std::string path = fmt::format("/proc/self/fd/{}", memfd_);
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* e = dlerror();
    throw std::runtime_error(
        fmt::format("{}: cannot load {}: {}", name(), image_->path(), e ? e : "unknown error"));
  }
  const auto* abi = static_cast<const uint32_t*>(dlsym(handle_, HS_USER_ABI_SYMBOL));
  auto attach = reinterpret_cast<hs_user_attach_fn>(dlsym(handle_, HS_USER_ATTACH_SYMBOL));
  if (!abi || !attach || *abi != HS_USER_ABI_VERSION) {
    throw std::runtime_error(fmt::format(
        "{}: {} was built for another version of the simulator (program runtime {}, this "
        "simulator {}): build it again with this simulator's wrappers",
        name(), image_->path(), abi ? *abi : 0, HS_USER_ABI_VERSION));
  }
  link_map* lm = nullptr;
  if (dlinfo(handle_, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
    throw std::runtime_error(
        fmt::format("{}: cannot find where {} was loaded", name(), image_->path()));
  }
  load_base_ = lm->l_addr;
  try {
    map_segments();
  } catch (const std::length_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", name(), e.what()));
  }
  make_services();
  runtime_ = attach(&services_);
  if (!runtime_) {
    throw std::runtime_error(
        fmt::format("{}: the program runtime in {} refused to attach", name(), image_->path()));
  }
}

ProgramInstance::~ProgramInstance() {
  if (runtime_) runtime_->detach();
  for (const auto& w : mapped_) mapper_.unmap(w);
  if (heap_host_) munmap(heap_host_, heap_bytes_);
  // The module copy stays loaded (and its name reserved) for the process's life: unloading
  // would run code of a program that is over. Its exit handlers were the runtime's, dropped.
}

void ProgramInstance::map_window(const void* host, uint64_t bytes, bool writable,
                                 const std::string& what) {
  const MemoryWindow& w = windows_.add(host, bytes, writable, what);
  mapper_.map(w);
  mapped_.push_back(w);
}

void ProgramInstance::map_segments() {
  PhdrSearch s{load_base_, {}, false};
  dl_iterate_phdr(find_phdrs, &s);
  if (!s.found) throw std::length_error("its loaded segments cannot be found");
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (const auto& ph : s.phdrs) {
    if (ph.p_type != PT_GNU_RELRO) continue;
    // As the loader protects it: whole pages from its start to the last page it fills.
    relro_lo = (load_base_ + ph.p_vaddr) & ~uintptr_t{kPage - 1};
    relro_hi = (load_base_ + ph.p_vaddr + ph.p_memsz) & ~uintptr_t{kPage - 1};
  }
  for (const auto& ph : s.phdrs) {
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    const uintptr_t lo = (load_base_ + ph.p_vaddr) & ~uintptr_t{kPage - 1};
    const uintptr_t hi = (load_base_ + ph.p_vaddr + ph.p_memsz + kPage - 1) & ~uintptr_t{kPage - 1};
    if (!(ph.p_flags & PF_W)) {
      map_window(reinterpret_cast<void*>(lo), hi - lo, false, "code and constants");
      continue;
    }
    uintptr_t w = lo;
    if (relro_hi > lo && relro_lo < hi) {  // made read-only after relocation
      const uintptr_t ro_hi = std::min(relro_hi, hi);
      if (relro_lo > lo) map_window(reinterpret_cast<void*>(lo), relro_lo - lo, true, "globals");
      map_window(reinterpret_cast<void*>(std::max(lo, relro_lo)), ro_hi - std::max(lo, relro_lo),
                 false, "relocated constants");
      w = ro_hi;
    }
    if (w < hi) map_window(reinterpret_cast<void*>(w), hi - w, true, "globals");
  }
}

// ---- services ----

void ProgramInstance::make_services() {
  services_.version = HS_USER_ABI_VERSION;
  services_.instance = this;
  services_.alloc = [](void* i, size_t bytes, size_t align) -> void* {
    return static_cast<ProgramInstance*>(i)->heap_->allocate(bytes, align);
  };
  services_.realloc = [](void* i, void* p, size_t bytes) -> void* {
    auto* self = static_cast<ProgramInstance*>(i);
    if (!self->heap_->owns(p)) return std::realloc(p, bytes);  // the C library's block
    std::string why;
    void* q = self->heap_->reallocate(p, bytes, why);
    if (!q && !why.empty()) self->terminate(End::Aborted, 134, "realloc(): " + why);
    return q;
  };
  services_.free = [](void* i, void* p) {
    auto* self = static_cast<ProgramInstance*>(i);
    if (!self->heap_->owns(p)) return std::free(p);  // the C library's block (strdup's, ...)
    std::string why;
    if (!self->heap_->release(p, why)) self->terminate(End::Aborted, 134, "free(): " + why);
  };
  services_.usable_size = [](void* i, const void* p) -> size_t {
    return static_cast<ProgramInstance*>(i)->heap_->usable_size(p);
  };
  services_.write = [](void* i, int stream, const char* data, size_t len) {
    static_cast<ProgramInstance*>(i)->streams_.write(stream, data, len);
  };
  services_.exit = [](void* i, int status) {
    static_cast<ProgramInstance*>(i)->terminate(End::Exited, status, "");
  };
  services_.abort = [](void* i, const char* why) {
    static_cast<ProgramInstance*>(i)->terminate(End::Aborted, 134, why ? why : "abort() called");
  };
  services_.compute = [](void* i, uint64_t cycles) {
    auto* self = static_cast<ProgramInstance*>(i);
    self->call("hybridsim_compute", [&] {
      self->compute_cycles_ += cycles;
      self->cur_->hal->compute(cycles);
    });
  };
  services_.sleep = [](void* i, uint64_t ns) {
    auto* self = static_cast<ProgramInstance*>(i);
    self->call("sleep", [&] {
      self->cur_->hal->compute(
          static_cast<uint64_t>(std::llround(static_cast<double>(ns) * 1e-9 * self->core_hz_)));
    });
  };
  services_.now = [](void* i) -> double {
    auto* self = static_cast<ProgramInstance*>(i);
    return static_cast<double>(self->cur_->hal->cycles()) / self->core_hz_;
  };
  services_.api = [](void* i, const char* n, uint32_t version, void** self_out) -> const void* {
    auto* self = static_cast<ProgramInstance*>(i);
    auto it = self->apis_.find(n ? n : "");
    if (it == self->apis_.end() || it->second.version != version) return nullptr;
    if (self_out) *self_out = it->second.self;
    return it->second.table;
  };
}

void ProgramInstance::provide_api(const std::string& api_name, uint32_t version, const void* table,
                                  void* self) {
  apis_[api_name] = {version, table, self};
}

// ---- running ----

void ProgramInstance::run(fw::Hal& hal) {
  main_.hal = &hal;
  cur_ = &main_;
  core_hz_ = hal.clock_hz();
  // The stack: the core's fiber's (guarded: the page below it faults).
  if (Fiber* f = Fiber::current()) {
    if (f->guard_page()) {
      stack_guards_.insert(stack_guards_.begin(),
                           StackGuard{f->guard_page(), Fiber::kGuardBytes, "", setup_.stack_bytes,
                                      setup_.stack_param});
    }
    // Above the canary's page.
    map_window(f->stack() + kPage, f->stack_bytes() - kPage, true, "stack");
  }
  // The heap: the rest of the region, address space until touched.
  heap_bytes_ = windows_.free_bytes() & ~(kPage - 1);
  if (heap_bytes_ < kPage) {
    throw std::runtime_error(fmt::format("{}: no simulated memory is left for the heap", name()));
  }
  heap_host_ = mmap(nullptr, heap_bytes_, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (heap_host_ == MAP_FAILED) {
    heap_host_ = nullptr;
    throw std::runtime_error(fmt::format("{}: cannot reserve its heap", name()));
  }
  map_window(heap_host_, heap_bytes_, true, "heap");
  heap_ = std::make_unique<HeapArena>(heap_host_, heap_bytes_);
  // argv, in the instance's own heap (as a process's are in its own memory).
  argv_strings_.clear();
  argv_strings_.push_back(image_->path());
  argv_strings_.insert(argv_strings_.end(), setup_.args.begin(), setup_.args.end());
  for (const auto& a : argv_strings_) {
    auto* s = static_cast<char*>(heap_->allocate(a.size() + 1));
    if (!s) throw std::runtime_error(fmt::format("{}: its arguments do not fit its heap", name()));
    std::memcpy(s, a.c_str(), a.size() + 1);
    argv_.push_back(s);
  }
  argv_.push_back(nullptr);

  fw::Phase main_phase(hal, "main");
  if (sigsetjmp(main_.jump, 1) == 0) {
    leave();
    try {
      runtime_->run_main(static_cast<int>(argv_.size() - 1), argv_.data());
    } catch (...) {
      // An exception of the program's that main let out: std::terminate's verdict.
      running_program() = nullptr;
      const std::type_info* t = abi::__cxa_current_exception_type();
      std::string type = t ? t->name() : "unknown";
      int status = 0;
      if (char* d = abi::__cxa_demangle(type.c_str(), nullptr, nullptr, &status)) {
        type = d;
        std::free(d);
      }
      end_ = End::Aborted;
      status_ = 134;
      why_ = "terminate called after throwing an instance of '" + type + "'";
    }
  }
  // Here after exit, abort, a crash, MPI_Abort or a failure inside a call.
  running_program() = nullptr;
  const bool from_program_code = cur_->depth == 0;
  back_to_simulator();
  if (end_ != End::Crashed && runtime_) runtime_->flush();  // a crashed process loses its buffers
  streams_.flush();
  if (cur_->escaped) std::rethrow_exception(std::exchange(cur_->escaped, nullptr));
  // The program's last stretch of code, from its last call to its end.
  if (from_program_code) charge_program_code();
}

void ProgramInstance::back_to_simulator() {
  if (!libc_->program_active) return;
  libc_->program_getopt = LibcState::save_getopt();
  LibcState::restore_getopt(libc_->simulator_getopt);
  std::cout.rdbuf(libc_->simulator_out);
  std::cerr.rdbuf(libc_->simulator_err);
  std::clog.rdbuf(libc_->simulator_log);
  libc_->program_active = false;
}

void ProgramInstance::run_thread(Thread& t, fw::Hal& hal, const std::function<void()>& start) {
  t.hal = &hal;
  cur_ = &t;
  if (sigsetjmp(t.jump, 1) == 0) {
    leave();
    start();
    thread_ended();
  }
  // Here after the thread's end, or the program's (exit, abort, a crash in this thread), or a
  // failure inside a call.
  running_program() = nullptr;
  const bool from_program_code = t.depth == 0;
  back_to_simulator();
  if (end_ == End::Crashed) streams_.flush();
  if (t.escaped) std::rethrow_exception(std::exchange(t.escaped, nullptr));
  if (from_program_code) charge_program_code();
}

void ProgramInstance::thread_ended() {
  jump_out();
}

void ProgramInstance::enter(const char* call_name) {
  running_program() = nullptr;
  ++cur_->depth;
  ++calls_;
  LibcState& l = *libc_;
  if (l.program_active) {
    cur_->program_errno = errno;
    l.program_getopt = LibcState::save_getopt();
    LibcState::restore_getopt(l.simulator_getopt);
    std::cout.rdbuf(l.simulator_out);
    std::cerr.rdbuf(l.simulator_err);
    std::clog.rdbuf(l.simulator_log);
    l.program_active = false;
  }
  charge_program_code();
  cur_->spans.push_back(call_name != nullptr);
  if (call_name) cur_->hal->phase_begin(call_name);
  for (const auto& hook : call_hooks_) hook(*cur_->hal);
}

void ProgramInstance::run_program_code(const std::function<void()>& code) {
  if (setup_.compute.measures_host()) left_at_ = thread_cpu_seconds();
  running_program() = this;
  code();
  running_program() = nullptr;
  charge_program_code();
}

void ProgramInstance::charge_program_code() {
  const uint64_t cycles = setup_.compute.cycles(
      setup_.compute.measures_host() ? thread_cpu_seconds() - left_at_ : 0, core_hz_);
  if (cycles > 0) {
    compute_cycles_ += cycles;
    cur_->hal->compute(cycles);
  }
}

void ProgramInstance::leave() {
  if (cur_->depth > 0) {
    if (cur_->spans.back()) cur_->hal->phase_end();
    cur_->spans.pop_back();
    --cur_->depth;
  }
  LibcState& l = *libc_;
  l.simulator_getopt = LibcState::save_getopt();
  LibcState::restore_getopt(l.program_getopt);
  l.simulator_out = std::cout.rdbuf(cout_buf_.get());
  l.simulator_err = std::cerr.rdbuf(cerr_buf_.get());
  l.simulator_log = std::clog.rdbuf(cerr_buf_.get());
  l.program_active = true;
  errno = cur_->program_errno;
  if (setup_.compute.measures_host()) left_at_ = thread_cpu_seconds();
  running_program() = this;
}

void ProgramInstance::escape(std::exception_ptr e) {
  cur_->escaped = std::move(e);
  jump_out();
}

void ProgramInstance::jump_out() {
  running_program() = nullptr;
  siglongjmp(cur_->jump, 1);
}

void ProgramInstance::terminate(End how, int status, const std::string& why) {
  terminate(how, status, why.c_str());
}

void ProgramInstance::terminate(End how, int status, const char* why) {
  end_ = how;
  status_ = status;
  why_ = why;
  jump_out();
}

void ProgramInstance::crashed_by_signal(int sig, const void* fault_address, const void* pc) {
  // In the signal handler: record, and resume run() (which restores the signal mask).
  end_ = End::Crashed;
  status_ = 128 + sig;
  signal_ = sig;
  fault_address_ = fault_address;
  fault_pc_ = pc;
  const auto* a = static_cast<const char*>(fault_address);
  overflowed_ = nullptr;
  for (const StackGuard& g : stack_guards_) {
    if ((sig == SIGSEGV || sig == SIGBUS) && a >= g.guard && a < g.guard + g.guard_bytes) {
      overflowed_ = &g;
    }
  }
  jump_out();
}

void ProgramInstance::add_stack_guard(const void* guard, uint64_t guard_bytes, std::string whose,
                                      uint64_t stack_bytes, std::string param) {
  stack_guards_.push_back(StackGuard{static_cast<const char*>(guard), guard_bytes, std::move(whose),
                                     stack_bytes, std::move(param)});
}

void ProgramInstance::remove_stack_guard(const void* guard) {
  for (auto it = stack_guards_.begin(); it != stack_guards_.end(); ++it) {
    if (it->guard == guard) {
      stack_guards_.erase(it);
      return;
    }
  }
}

// ---- descriptions ----

std::string ProgramInstance::describe_code_address(const void* pc) const {
  if (!pc) return "";
  Dl_info info{};
  if (!dladdr(pc, &info) || !info.dli_fname) return fmt::format("{}", pc);
  const auto base = reinterpret_cast<uintptr_t>(info.dli_fbase);
  const auto at = reinterpret_cast<uintptr_t>(pc);
  if (base != load_base_) {
    // Another object (the C library): its name and the nearest symbol.
    std::string file = info.dli_fname;
    file =
        file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
    return info.dli_sname ? fmt::format("{} in {}", info.dli_sname, file) : file;
  }
  // The program's own code: addr2line gives the function and, with -g, the file and line.
  const uintptr_t offset = at - base;
  const std::string cmd =
      fmt::format("addr2line -f -C -e '{}' {:#x} 2>/dev/null", image_->path(), offset);
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[1024];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  std::string function, line;
  if (auto nl = out.find('\n'); nl != std::string::npos) {
    function = out.substr(0, nl);
    line = out.substr(nl + 1);
    if (auto e = line.find('\n'); e != std::string::npos) line.resize(e);
  }
  if (auto d = line.find(" (discriminator"); d != std::string::npos) line.resize(d);
  const bool has_line = !line.empty() && line.rfind("??", 0) != 0;
  const bool has_function = !function.empty() && function != "??";
  if (has_line) {
    line =
        line.substr(line.find_last_of('/') == std::string::npos ? 0 : line.find_last_of('/') + 1);
    return has_function ? fmt::format("{} at {}", function, line) : line;
  }
  return has_function ? fmt::format("{} in {}+{:#x}", function, image_->name(), offset)
                      : fmt::format("{}+{:#x}", image_->name(), offset);
}

std::string ProgramInstance::call_site() const {
  if (!runtime_ || !runtime_->call_site) return "";
  // The return address is the instruction after the call: its line is the call's.
  return describe_code_address(static_cast<const char*>(runtime_->call_site) - 1);
}

std::string ProgramInstance::end_description() const {
  switch (end_) {
    case End::Running:
      return "still running";
    case End::Exited:
      return fmt::format("exited with status {}", status_);
    case End::Aborted:
      return "aborted: " + why_;
    case End::Crashed: {
      std::string where = describe_code_address(fault_pc_);
      if (overflowed_) {
        const StackGuard& g = *overflowed_;
        return fmt::format("crashed: stack overflow{} (its stack is {} KiB){}{}",
                           g.whose.empty() ? "" : " in " + g.whose, g.stack_bytes >> 10,
                           where.empty() ? "" : ", in " + where,
                           g.param.empty() ? "" : "; raise " + g.param + " for a larger stack");
      }
      std::string s = fmt::format("crashed: {}", signal_name(signal_));
      if (signal_ == SIGSEGV || signal_ == SIGBUS)
        s += fmt::format(" at address {}", fault_address_);
      if (!where.empty()) s += ", in " + where;
      return s;
    }
  }
  return "?";
}

uint64_t ProgramInstance::host_bytes() const {
  uint64_t n = 0;
  for (const auto& w : windows_.all()) {
    if (w.what == "heap") continue;
    n += w.bytes;
  }
  if (heap_) n += heap_->high_water();
  return n;
}

}  // namespace hs::user
