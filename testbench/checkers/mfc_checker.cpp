#include "testbench/checkers/mfc_checker.h"

#include <fmt/format.h>

#include <algorithm>

#include "tlm/check/checker.h"

namespace hs::checkers {

using cell::MfcIssuer;
using cell::MfcOrder;

namespace {

// The architecture's rules, pairwise: `later` waits for `earlier` (both of one queue).
template <class C>
bool ordered_behind(const C& earlier, const C& later) {
  if (earlier.order == MfcOrder::All || later.order == MfcOrder::All) return true;
  if (earlier.tag != later.tag) return false;
  return later.order == MfcOrder::Fence || later.order == MfcOrder::Barrier ||
         earlier.order == MfcOrder::Barrier;
}

std::string where(const std::string& mfc, MfcIssuer q) {
  return fmt::format("{} ({} queue)", mfc, q == MfcIssuer::Spu ? "SPU" : "proxy");
}

}  // namespace

MfcChecker::MfcChecker() {
  auto& reg = CheckRegistry::instance();
  for (const char* rule : {mfc_rules::kOrder, mfc_rules::kCompleteOnce, mfc_rules::kTagStatus}) {
    reg.check(rule);  // listed even in a run that queues nothing
  }
}

void MfcChecker::queued(const std::string& mfc, MfcIssuer q, uint64_t id, uint32_t tag,
                        MfcOrder order) {
  queue(mfc, q).push_back({id, tag, order});
}

void MfcChecker::started(const std::string& mfc, MfcIssuer q, uint64_t id) {
  Queue& cmds = queue(mfc, q);
  const auto it = std::find_if(cmds.begin(), cmds.end(), [id](const Cmd& c) { return c.id == id; });
  HS_CHECK(it != cmds.end() && !it->started, mfc_rules::kCompleteOnce, where(mfc, q),
           fmt::format("command {} started but was never queued, or started twice", id));
  if (it == cmds.end()) return;
  it->started = true;
  for (auto e = cmds.begin(); e != it; ++e) {
    HS_CHECK(e->done || !ordered_behind(*e, *it), mfc_rules::kOrder, where(mfc, q),
             fmt::format("command {} (tag {}) started while command {} (tag {}), issued before "
                         "it and ordered before it, had not completed",
                         id, it->tag, e->id, e->tag));
  }
}

void MfcChecker::completed(const std::string& mfc, MfcIssuer q, uint64_t id) {
  Queue& cmds = queue(mfc, q);
  const auto it = std::find_if(cmds.begin(), cmds.end(), [id](const Cmd& c) { return c.id == id; });
  HS_CHECK(it != cmds.end() && it->started && !it->done, mfc_rules::kCompleteOnce, where(mfc, q),
           fmt::format("command {} completed {}", id,
                       it == cmds.end() ? "but was never queued (or completed before)"
                       : !it->started   ? "before it started"
                                        : "twice"));
  if (it == cmds.end()) return;
  it->done = true;
  while (!cmds.empty() && cmds.front().done) cmds.pop_front();
}

void MfcChecker::tag_status(const std::string& mfc, MfcIssuer q, uint32_t complete) {
  for (const Cmd& c : queue(mfc, q)) {
    HS_CHECK(c.done || !(complete >> c.tag & 1), mfc_rules::kTagStatus, where(mfc, q),
             fmt::format("tag group {} reported complete while command {} of it was outstanding",
                         c.tag, c.id));
  }
}

}  // namespace hs::checkers
