// A partitioned run's speed (docs/parallel.md): the same simulation as one process and under
// `mpirun -np P` for P = 2, 4, 8, ... up to the host's cores, for
//  - uniform random traffic on the tori of HYBRIDSIM_BENCH_PARALLEL_TORI (default 32x32x32)
//    at loads 0.1 and 0.8;
//  - one halo3d iteration with a rank on every node, on the tori of
//    HYBRIDSIM_BENCH_PARALLEL_HALO3D (default 16x16x16; 72x32x32 is the full machine).
// HYBRIDSIM_BENCH_PARALLEL_PROCESSES="1,2,4,16" picks the process counts instead; an empty
// list of tori leaves that workload out.
//
// Each row gives the simulation's wall time (elaboration excluded), the speed-up and parallel
// efficiency against the one-process run measured in the same case, the share of time spent
// synchronising, the load imbalance, the windows, the cut messages, and peak memory (the
// largest process and all of them together). Each partitioned row also carries the model of
// where its time goes (docs/parallel.md): the work the partitions did, the windows, and the
// cost of one window's exchange and vote, and from them the wall time the same run would take
// on `model_processes` cores of its own (16).
//
// The case fails when a partitioned report differs from the sequential one (beyond its `run`
// section) or a run fails; it has no speed target of its own (the cores at hand decide). It
// writes the figure's gnuplot script (and the SVG when gnuplot is installed) to
// HYBRIDSIM_BENCH_PARALLEL_FIGURE (default parallel_scaling.gp in the working directory).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::bench {

nlohmann::json run_parallel_scaling_case(const std::string& name);  // null if not this case
void print_parallel_scaling_summary(const nlohmann::json& all);
bool parallel_scaling_failed(const nlohmann::json& all);

}  // namespace hs::bench
