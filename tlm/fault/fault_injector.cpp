#include "tlm/fault/fault_injector.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs {

namespace {

// "3, 17,200" -> {3, 17, 200}; throws InputError naming `param` on anything else.
std::vector<uint64_t> parse_numbers(const std::string& text, const std::string& param) {
  std::vector<uint64_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
    const std::string t = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    size_t used = 0;
    unsigned long long v = 0;
    try {
      if (!t.empty() && t[0] != '-' && t[0] != '+') v = std::stoull(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (t.empty() || used != t.size() || v == 0) {
      throw InputError(ParamRegistry::instance().refusal(
          param, fmt::format("= '{}': '{}' is not an event number (1, 2, ...); expects a "
                             "comma-separated list such as '3,17,200'",
                             text, t)));
    }
    out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

FaultInjector::Spec FaultInjector::declare(const ParamScope& scope, const std::string& what,
                                           const std::string& desc, const std::string& event,
                                           double max_rate) {
  Spec s;
  s.rate =
      scope.real(what + "_rate", 0, "", fmt::format("{}: probability per {} (0: off)", desc, event),
                 Range::between(0, max_rate));
  const std::string at = scope.text(
      what + "_at", "",
      fmt::format("{}: numbers of the {}s to hit, counted from 1 (e.g. '3,17'; empty: none)", desc,
                  event));
  if (!at.empty()) s.at = parse_numbers(at, scope.name(what + "_at"));
  s.name = scope.name(what);
  return s;
}

FaultInjector::FaultInjector(const Spec& spec, const std::string& stream)
    : on_(spec.rate > 0 || !spec.at.empty()), rate_(spec.rate), at_(spec.at) {
  if (rate_ > 0) {
    rng_ = std::make_unique<std::mt19937_64>(
        stream_seed(spec.name + (stream.empty() ? "" : "." + stream)));
  }
}

bool FaultInjector::draw() {
  ++events_;
  bool listed = false;
  if (next_at_ < at_.size() && at_[next_at_] == events_) {
    ++next_at_;
    listed = true;
  }
  // The rate's draw happens for every event, listed or not, so listing a number does not
  // shift which later events the rate hits.
  const bool drawn = rate_ > 0 && uniform_(*rng_) < rate_;
  return listed || drawn;
}

}  // namespace hs
