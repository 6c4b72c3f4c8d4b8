// A named set of interchangeable router policies (routing functions, output selection rules,
// output arbiters): look one up by name, list the names and one-line summaries for the
// parameter that chooses it. A policy class needs name() and summary().
#pragma once
#include <string>
#include <vector>

#include "tlm/common/errors.h"

namespace hs::torus {

template <class Policy>
class PolicyList {
 public:
  PolicyList(const char* kind, std::vector<const Policy*> policies)
      : kind_(kind), policies_(std::move(policies)) {}

  const Policy& get(const std::string& name) const {
    for (const Policy* p : policies_) {
      if (name == p->name()) return *p;
    }
    throw InputError("unknown torus " + std::string(kind_) + " '" + name + "' (" + help() + ")");
  }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const Policy* p : policies_) v.push_back(p->name());
    return v;
  }
  std::string help() const {
    std::string s;
    for (const Policy* p : policies_) {
      s += (s.empty() ? "" : "; ") + std::string(p->name()) + ": " + p->summary();
    }
    return s;
  }

 private:
  const char* kind_;
  std::vector<const Policy*> policies_;
};

}  // namespace hs::torus
