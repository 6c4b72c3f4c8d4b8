// What the host code a program runs between two calls into the simulator (an MPI call,
// hybridsim_compute) costs on its modelled core. Chosen by parameter (program.compute):
// - scaled (the default): the host CPU time the code took on this thread, times `slowdown`
//   (how much longer the modelled core takes for the same work), in cycles of the core's
//   clock. Host time varies from run to run and host to host, so simulated times do too:
//   runs are reproducible only under the other two models.
// - fixed: `fixed_cycles` for every such stretch, whatever it did: fully deterministic (what
//   tests use);
// - zero: nothing; only hybridsim_compute and the calls' own modelled costs take time (for
//   programs annotated with their own cost estimates).
#pragma once
#include <cstdint>
#include <string>

namespace hs::user {

enum class ComputeKind { Scaled, Fixed, Zero };
ComputeKind parse_compute_kind(const std::string& name);  // throws std::invalid_argument
const char* compute_kind_name(ComputeKind k);

struct ComputeModel {
  ComputeKind kind = ComputeKind::Scaled;
  double slowdown = 4.0;
  uint64_t fixed_cycles = 0;
  // Cycles of a core at `core_hz` for a stretch of program code that took `host_seconds`.
  uint64_t cycles(double host_seconds, double core_hz) const;
  // Whether the model reads the host clock at all.
  bool measures_host() const { return kind == ComputeKind::Scaled; }
};

// This thread's CPU time in seconds (what `scaled` measures: time the host spent elsewhere,
// with other processes, is not the program's).
double thread_cpu_seconds();

}  // namespace hs::user
