// AMI benchmark case: completion time versus message size for variants A, B, C and the two
// baselines, with the RECEIVE posted early, late and after a delay; bytes moved twice and
// peak temporary space.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::bench {

nlohmann::json run_ami_case(const std::string& name);  // null if not an AMI case
void print_ami_summary(const nlohmann::json& all);

}  // namespace hs::bench
