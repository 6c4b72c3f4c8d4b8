#include "testbench/runner/user_programs.h"

#include <fmt/format.h>
#include <stdexcept>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

UserProgramParams declare_user_program_params() {
  UserProgramParams u;
  ParamScope p("program");
  u.compute.kind = user::parse_compute_kind(p.choice(
      "compute", "scaled",
      "what a program's own code costs its core between two calls into the simulator: scaled "
      "(host CPU time x program.compute_slowdown), fixed (program.compute_cycles a stretch, "
      "reproducible) or zero (only hybridsim_compute)",
      {"scaled", "fixed", "zero"}));
  u.compute.slowdown = p.real(
      "compute_slowdown", u.compute.slowdown, "",
      "scaled model: how many times longer the modelled core takes than this host's core for "
      "the same code",
      Range::between(1e-3, 1e4));
  u.compute.fixed_cycles = static_cast<uint64_t>(
      p.integer("compute_cycles", 100, "cycles",
                "fixed model: core cycles charged for each stretch of a program's own code",
                Range::between(0, 1e12)));
  u.stack_param = p.name("stack_size");
  u.stack_bytes = static_cast<uint64_t>(
      p.integer("stack_size", static_cast<int64_t>(u.stack_bytes), "B",
                "each program's stack (its core's; a guard page below it catches an overflow)",
                Range::between(64 * 1024, 64 << 20)));
  u.labels = p.flag("labels", false,
                    "prefix each line a program writes with its instance's label ([rank])");
  return u;
}

std::shared_ptr<const user::ProgramImage> read_program(const std::string& path,
                                                       const std::string& param) {
  try {
    return user::ProgramImage::read(path);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("parameter '{}': {}", param, e.what()));
  }
}

user::WindowMapper windows_in(Memory& memory) {
  Memory* m = &memory;
  return {[m](const user::MemoryWindow& w) {
            m->map_host_window(w.simulated, reinterpret_cast<void*>(w.host), w.bytes, w.writable);
          },
          [m](const user::MemoryWindow& w) { m->unmap_host_window(w.simulated); }};
}

}  // namespace hs::runner
