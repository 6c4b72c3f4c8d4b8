// The validation table: one scenario per published measurement of the real machines that the
// model can express, with the published figure, the model's, their ratio and the command that
// reproduces it; figures the model cannot yet reproduce are listed with the reason.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hs::bench {

const std::vector<std::string>& validation_cases();
nlohmann::json run_validation_case(const std::string& name);  // null JSON if unknown
void print_validation_summary(const nlohmann::json& all);
// Whether a validation row's scenario failed to run (its figure is missing).
bool validation_failed(const nlohmann::json& all);

}  // namespace hs::bench
