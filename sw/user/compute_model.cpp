#include "sw/user/compute_model.h"

#include <time.h>
#include <cmath>
#include <stdexcept>

namespace hs::user {

ComputeKind parse_compute_kind(const std::string& name) {
  if (name == "scaled") return ComputeKind::Scaled;
  if (name == "fixed") return ComputeKind::Fixed;
  if (name == "zero") return ComputeKind::Zero;
  throw std::invalid_argument("compute model '" + name + "' (scaled, fixed, zero)");
}

const char* compute_kind_name(ComputeKind k) {
  switch (k) {
    case ComputeKind::Scaled:
      return "scaled";
    case ComputeKind::Fixed:
      return "fixed";
    case ComputeKind::Zero:
      return "zero";
  }
  return "?";
}

uint64_t ComputeModel::cycles(double host_seconds, double core_hz) const {
  switch (kind) {
    case ComputeKind::Scaled:
      return host_seconds > 0
                 ? static_cast<uint64_t>(std::llround(host_seconds * slowdown * core_hz))
                 : 0;
    case ComputeKind::Fixed:
      return fixed_cycles;
    case ComputeKind::Zero:
      return 0;
  }
  return 0;
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace hs::user
