// MPI programs' speed: one pattern, the 3D halo exchange on 512 ranks (an 8x8x8 torus, one rank
// a node, 20 iterations of six 2 KiB faces a rank), run as a C program built with
// hybridsim-mpicc under `hybridsim mpirun` and as the same pattern in the program language
// (`hybridsim run` of the program workload), alternately, best of two each, so that the
// machine's load weighs on both alike. Reports simulated MPI messages per wall second of each
// and their ratio (target: the C program at least 0.8 of the program language), and the peak
// memory of each run and what a C rank costs beyond a program-language rank. The case fails
// when the ratio misses the target or either run fails.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::bench {

nlohmann::json run_mpi_speed_case(const std::string& name);  // null if not this case
void print_mpi_speed_summary(const nlohmann::json& all);
// Whether the case ran and missed its target (or a run failed).
bool mpi_speed_failed(const nlohmann::json& all);

}  // namespace hs::bench
