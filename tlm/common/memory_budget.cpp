#include "tlm/common/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>

#include "tlm/common/errors.h"

namespace hs {

namespace {

// A field of /proc/meminfo or /proc/self/status in bytes ("MemAvailable:  1234 kB"); -1 if absent.
double proc_field(const char* file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    std::istringstream words(line.substr(key.size() + 1));
    double kib = 0;
    if (words >> kib) return kib * 1024;
  }
  return -1;
}

std::string gigabytes(double bytes) {
  return fmt::format("{:.1f} GB", bytes / 1e9);
}

std::string g_what_to_do;
char* g_reserve = nullptr;
std::terminate_handler g_previous_terminate = nullptr;

void release_reserve_or_fail() {
  if (!g_reserve) throw std::bad_alloc();
  delete[] g_reserve;
  g_reserve = nullptr;
}

[[noreturn]] void terminate_clearly() {
  if (auto e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      const std::string m = "hybridsim: error: " + out_of_memory_message() + "\n";
      const ssize_t ignored = write(STDERR_FILENO, m.data(), m.size());
      (void)ignored;
      _exit(2);
    } catch (...) {
    }
  }
  if (g_previous_terminate) g_previous_terminate();
  std::abort();
}

}  // namespace

void install_out_of_memory_handlers(const std::string& what_to_do) {
  g_what_to_do = what_to_do;
  // Under an address-space limit malloc can fail. SystemC's own pool allocator dereferences
  // what malloc returns; asked before its first allocation, it takes its memory through
  // operator new instead, whose failure comes here as bad_alloc.
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    setenv("SYSTEMC_MEMPOOL_DONT_USE", "1", 0);
  }
  if (!g_reserve) g_reserve = new char[64 << 20];
  std::set_new_handler(release_reserve_or_fail);
  g_previous_terminate = std::set_terminate(terminate_clearly);
}

std::string out_of_memory_message() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return fmt::format("out of memory: an allocation failed with {} in use at the peak; {}",
                     gigabytes(static_cast<double>(ru.ru_maxrss) * 1024), g_what_to_do);
}

MemoryBudget& MemoryBudget::instance() {
  static MemoryBudget budget;
  return budget;
}

double MemoryBudget::host_available_bytes() {
  double available = proc_field("/proc/meminfo", "MemAvailable");
  if (available < 0) available = std::numeric_limits<double>::infinity();
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const double mapped = std::max(0.0, proc_field("/proc/self/status", "VmSize"));
    available = std::min(available, static_cast<double>(as.rlim_cur) - mapped);
  }
  return available;
}

void MemoryBudget::require(double bytes, const std::string& what,
                           const std::string& parameters) const {
  const bool host = limit_ <= 0;
  const double budget = host ? host_available_bytes() : limit_;
  if (bytes <= budget) return;
  throw InputError(
      fmt::format("{} needs about {} of memory, more than {} ({}): make it smaller ({}), or set "
                  "sim.memory_limit to run it anyway",
                  what, gigabytes(bytes), host ? "this host has available" : "sim.memory_limit",
                  gigabytes(budget), parameters));
}

}  // namespace hs
