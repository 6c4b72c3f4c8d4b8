// The torus machine at scale: from 8x8x8 up to the full Blue Gene/P (72x32x32, 73,728 nodes),
// each size in its own child process: elaboration wall time (model built, bound and ready to
// simulate), run wall time of a fixed 10 us uniform-random window (torus_traffic), peak RSS
// and bytes per node. The case fails unless 72x32x32 elaborates within 30 s and stays within
// 8 GiB.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::bench {

nlohmann::json run_torus_scale_case(const std::string& name);  // null if not this case
void print_torus_scale_summary(const nlohmann::json& all);
// Whether the case ran and missed a target (or a size failed to run).
bool torus_scale_failed(const nlohmann::json& all);

}  // namespace hs::bench
