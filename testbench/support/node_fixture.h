// Helpers for tests that build the hybrid node directly.
#pragma once
#include <memory>
#include <string>

#include "hw/hybrid/hybrid_node.h"
#include "tlm/check/checker.h"
#include "tlm/params/param_registry.h"

namespace hs::testing {

// Overrides a parameter as the command line would (before the model is built).
inline void set_param(const std::string& name, const nlohmann::json& value) {
  ParamRegistry::instance().set_override(name, value, {"test", 2});
}

// Builds node0 and checks every parameter, as a run would before starting.
inline std::unique_ptr<hybrid::HybridNode> make_hybrid_node() {
  auto node = std::make_unique<hybrid::HybridNode>("node0");
  ParamRegistry::instance().finalize();
  return node;
}

// "component: message" of the first invariant violation, or "" if none.
inline std::string first_violation() {
  const auto& v = CheckRegistry::instance().violations();
  return v.empty() ? "" : v.front().component + ": " + v.front().message;
}

}  // namespace hs::testing
