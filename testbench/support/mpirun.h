// What the tests of partitioned runs share: the command prefix that starts one (Open MPI's
// mpirun with P processes, oversubscribed since CI has two cores, allowed to run as root since
// CI's containers do; the test target defines HYBRIDSIM_MPIEXEC in testbench/CMakeLists.txt),
// and the part of a report that must equal the sequential run's.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::testing {

// `wrapper` runs mpirun ("timeout 300 ").
inline std::string mpirun(int processes, const std::string& wrapper = "") {
  return std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") + wrapper +
         HYBRIDSIM_MPIEXEC + " --oversubscribe -np " + std::to_string(processes) + " ";
}

// A report without what describes the execution rather than the model (wall time, memory,
// the partitions): everything else is the sequential run's.
inline nlohmann::json model_part(nlohmann::json report) {
  report.erase("run");
  return report;
}

}  // namespace hs::testing
