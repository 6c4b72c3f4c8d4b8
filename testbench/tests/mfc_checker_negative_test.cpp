// Every MFC checker rule proven to fire: the checker is driven with the event sequence a
// faulty MFC would produce and reports the violation under exactly that rule's name; the
// same sequence in a correct order breaks nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testbench/checkers/mfc_checker.h"
#include "tlm/check/checker.h"

using namespace hs;
using hs::cell::MfcIssuer;
using hs::cell::MfcOrder;
using hs::checkers::MfcChecker;
namespace rules = hs::checkers::mfc_rules;

namespace {
constexpr const char* kMfc = "node0.acc0.spe0.mfc";
constexpr MfcIssuer kSpu = MfcIssuer::Spu;
std::vector<std::string> failed() {
  return CheckRegistry::instance().failed_checks();
}
}  // namespace

TEST(MfcCheckerNegative, ACorrectSequenceBreaksNoRule) {
  MfcChecker ck;
  ck.queued(kMfc, kSpu, 1, 3, MfcOrder::None);
  ck.queued(kMfc, kSpu, 2, 3, MfcOrder::Fence);
  ck.queued(kMfc, kSpu, 3, 4, MfcOrder::None);  // another tag: may overtake
  ck.started(kMfc, kSpu, 1);
  ck.started(kMfc, kSpu, 3);
  ck.completed(kMfc, kSpu, 3);
  ck.tag_status(kMfc, kSpu, 1u << 4);
  ck.completed(kMfc, kSpu, 1);
  ck.started(kMfc, kSpu, 2);
  ck.completed(kMfc, kSpu, 2);
  ck.tag_status(kMfc, kSpu, 1u << 3 | 1u << 4);
  EXPECT_TRUE(CheckRegistry::instance().ok()) << CheckRegistry::instance().to_json().dump();
}

TEST(MfcCheckerNegative, AFencedCommandStartingBeforeAnEarlierOneOfItsTagCompleted) {
  MfcChecker ck;
  ck.queued(kMfc, kSpu, 1, 3, MfcOrder::None);
  ck.queued(kMfc, kSpu, 2, 3, MfcOrder::Fence);
  ck.started(kMfc, kSpu, 1);
  ck.started(kMfc, kSpu, 2);
  EXPECT_EQ(failed(), std::vector<std::string>{rules::kOrder});
}

TEST(MfcCheckerNegative, ACommandOvertakingABarrieredOneOfItsTag) {
  MfcChecker ck;
  ck.queued(kMfc, kSpu, 1, 0, MfcOrder::Barrier);
  ck.queued(kMfc, kSpu, 2, 0, MfcOrder::None);
  ck.started(kMfc, kSpu, 2);
  EXPECT_EQ(failed(), std::vector<std::string>{rules::kOrder});
}

TEST(MfcCheckerNegative, ACommandOfAnyTagOvertakingABarrierCommand) {
  MfcChecker ck;
  ck.queued(kMfc, MfcIssuer::Proxy, 1, 5, MfcOrder::All);
  ck.queued(kMfc, MfcIssuer::Proxy, 2, 9, MfcOrder::None);
  ck.started(kMfc, MfcIssuer::Proxy, 2);
  EXPECT_EQ(failed(), std::vector<std::string>{rules::kOrder});
}

TEST(MfcCheckerNegative, ACommandCompletingTwiceOrBeforeItStarted) {
  MfcChecker ck;
  ck.queued(kMfc, kSpu, 1, 0, MfcOrder::None);
  ck.completed(kMfc, kSpu, 1);
  EXPECT_EQ(failed(), std::vector<std::string>{rules::kCompleteOnce});
}

TEST(MfcCheckerNegative, ATagGroupReportedCompleteWithACommandOutstanding) {
  MfcChecker ck;
  ck.queued(kMfc, kSpu, 1, 7, MfcOrder::None);
  ck.started(kMfc, kSpu, 1);
  ck.tag_status(kMfc, kSpu, 1u << 7);
  EXPECT_EQ(failed(), std::vector<std::string>{rules::kTagStatus});
}
