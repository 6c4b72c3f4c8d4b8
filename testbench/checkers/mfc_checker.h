// The MFC checker: it watches every SPE's command queues (hw/cell/mfc.h, MfcObserver) and
// fails the run on any violation of
// - ordering: a command starts only after every earlier command of its queue it is ordered
//   behind has completed (a fenced or barriered command behind the earlier commands of its
//   tag, every command behind an earlier barriered one of its tag, and everything on either
//   side of a BARRIER, EIEIO or SYNC), as the architecture states the rules pairwise;
// - completion: a command completes once, and only after it started;
// - tag status: a tag group reported complete to its issuer has no command outstanding.
// Each rule is a named check (mfc_rules below), armed in every hybrid scenario.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>

#include "hw/cell/mfc.h"

namespace hs::checkers {

namespace mfc_rules {
constexpr const char* kOrder =
    "MFC: a command starts only after the earlier commands it is ordered behind completed";
constexpr const char* kCompleteOnce = "MFC: a command completes once, after it started";
constexpr const char* kTagStatus = "MFC: a tag group reported complete has no command outstanding";
}  // namespace mfc_rules

class MfcChecker : public cell::MfcObserver {
 public:
  MfcChecker();

  // cell::MfcObserver, and the same by name (the negative tests drive these).
  void queued(const cell::Mfc& m, cell::MfcIssuer q, uint64_t id, uint32_t tag,
              cell::MfcOrder order) override {
    queued(m.name(), q, id, tag, order);
  }
  void started(const cell::Mfc& m, cell::MfcIssuer q, uint64_t id) override {
    started(m.name(), q, id);
  }
  void completed(const cell::Mfc& m, cell::MfcIssuer q, uint64_t id) override {
    completed(m.name(), q, id);
  }
  void tag_status(const cell::Mfc& m, cell::MfcIssuer q, uint32_t complete) override {
    tag_status(m.name(), q, complete);
  }
  void queued(const std::string& mfc, cell::MfcIssuer q, uint64_t id, uint32_t tag,
              cell::MfcOrder order);
  void started(const std::string& mfc, cell::MfcIssuer q, uint64_t id);
  void completed(const std::string& mfc, cell::MfcIssuer q, uint64_t id);
  void tag_status(const std::string& mfc, cell::MfcIssuer q, uint32_t complete);

 private:
  struct Cmd {
    uint64_t id;
    uint32_t tag;
    cell::MfcOrder order;
    bool started = false, done = false;
  };
  using Queue = std::deque<Cmd>;  // issue order; completed commands leave from the front
  Queue& queue(const std::string& mfc, cell::MfcIssuer q) {
    return queues_[{mfc, q == cell::MfcIssuer::Spu ? 0 : 1}];
  }
  std::map<std::pair<std::string, int>, Queue> queues_;
};

}  // namespace hs::checkers
