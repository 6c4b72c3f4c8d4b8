// A partitioned run's speed (docs/parallel.md): uniform random traffic on 16x16x16 and
// 32x32x32 tori at loads 0.1 and 0.8, as one process and under `mpirun -np P` for P = 2, 4,
// 8, ... up to the host's cores. Each row gives the simulation's wall time (elaboration
// excluded), the speed-up and parallel efficiency against the one-process run measured in the
// same case, the share of time spent synchronising, the load imbalance, the windows and the
// peak memory of partition 0. The case fails when a partitioned report differs from the
// sequential one (beyond its `run` section) or a run fails; it has no speed target of its own
// (the cores at hand decide). HYBRIDSIM_BENCH_PARALLEL_TORI="8x8x8,16x16x16" picks other
// tori.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::bench {

nlohmann::json run_parallel_scaling_case(const std::string& name);  // null if not this case
void print_parallel_scaling_summary(const nlohmann::json& all);
bool parallel_scaling_failed(const nlohmann::json& all);

}  // namespace hs::bench
