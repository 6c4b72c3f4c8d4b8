// User programs on a model's cores (sw/user/), machine-neutral: the program.* parameters
// (compute model, stack, output labels), reading a program module before the run, and the
// window mapper that makes an instance's memory host windows of a core's memory. A workload
// that runs users' programs (mpi_program; Cell and host programs alike) builds its instances
// from these.
#pragma once
#include <memory>
#include <string>

#include "sw/user/program_image.h"
#include "sw/user/program_instance.h"
#include "tlm/memory/memory.h"

namespace hs::runner {

struct UserProgramParams {
  user::ComputeModel compute;
  uint64_t stack_bytes = 4 << 20;
  std::string stack_param;  // its parameter's name, for the overflow message
  bool labels = false;
};

// Declares program.compute, program.compute_slowdown, program.compute_cycles,
// program.stack_size and program.labels.
UserProgramParams declare_user_program_params();

// The program module at `path`, checked; InputError naming `param` and what is wrong.
std::shared_ptr<const user::ProgramImage> read_program(const std::string& path,
                                                       const std::string& param);

// Host windows of `memory` (sparse_storage.h's rules).
user::WindowMapper windows_in(Memory& memory);

}  // namespace hs::runner
