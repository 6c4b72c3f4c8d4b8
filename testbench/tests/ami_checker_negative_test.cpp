// Every AMI checker rule proven to fire. The checker's input is the firmware's trace port
// (AmiTrace): each test drives it with the event sequence a faulty AMI would produce and
// asserts the violation is reported under exactly that rule's name. A correct sequence for
// each variant breaks nothing, so the failures below come from the faults alone.
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <vector>

#include "testbench/checkers/ami_checker.h"
#include "tlm/check/checker.h"

using namespace hs;
namespace ami = hs::fw::ami;
namespace rules = hs::checkers::ami_rules;
using hs::checkers::AmiChecker;
using hs::checkers::AmiTraceLog;

namespace {

constexpr int kSender = 0, kReceiver = 1;
constexpr uint32_t kMsg = 7, kSize = 1000;

std::vector<std::string> failed() {
  return CheckRegistry::instance().failed_checks();
}
std::vector<std::string> only(const char* rule) {
  return {rule};
}

// The sender's side of a message up to its STOP, processed after `eager` bytes.
void send_until_stop(AmiChecker& ck, ami::Protocol p, uint32_t eager) {
  ck.send_posted(kSender, kReceiver, kMsg, kSize, p);
  ck.message_arrived(kReceiver, kSender, kMsg, kSize, p);
  ck.eager_posted(kSender, kReceiver, kMsg, 0, eager);
  ck.committed(kReceiver, kSender, kMsg, 0, eager);
  ck.stop_sent(kReceiver, kSender, kMsg, ami::StopCause::None);
  ck.stop_processed(kSender, kReceiver, kMsg, eager);
}

}  // namespace

TEST(AmiCheckerNegative, ACorrectVariantBMessageBreaksNoRule) {
  AmiChecker ck;
  ck.injected(kSender, 1, 1, 4);
  ck.listed(kSender, 1);
  ck.pending(kSender, 1);
  ck.called(kSender, 1, 2);
  ck.pending(kSender, 0);
  send_until_stop(ck, ami::Protocol::StopB, 100);
  ck.cts_received(kReceiver, kSender, kMsg, 100);
  ck.get_posted(kReceiver, kSender, kMsg, 800, 1000, ami::GetKind::Bottom);
  ck.committed(kReceiver, kSender, kMsg, 800, 1000);
  ck.get_posted(kReceiver, kSender, kMsg, 100, 800, ami::GetKind::Final);
  ck.committed(kReceiver, kSender, kMsg, 100, 800);
  ck.temp_usage(kReceiver, 100, 4096);
  ck.receive_done(kReceiver, kSender, kMsg);
  ck.ack_received(kSender, kReceiver, kMsg);
  ck.send_done(kSender, kReceiver, kMsg);
  EXPECT_TRUE(failed().empty());
  EXPECT_EQ(ck.violations(), 0u);
}

TEST(AmiCheckerNegative, ACorrectVariantCMessageBreaksNoRule) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopC, 300);
  ck.put_posted(kSender, kReceiver, kMsg, 300, kSize);
  ck.committed(kReceiver, kSender, kMsg, 300, kSize);
  ck.receive_done(kReceiver, kSender, kMsg);
  ck.ack_received(kSender, kReceiver, kMsg);
  ck.send_done(kSender, kReceiver, kMsg);
  EXPECT_TRUE(failed().empty());
}

TEST(AmiCheckerNegative, MoreDescriptorsThanFifoSlots) {
  AmiChecker ck;
  ck.injected(kSender, 5, 5, 4);
  EXPECT_EQ(failed(), only(rules::kFifoBound));
  EXPECT_EQ(ck.violations(), 1u);
}

TEST(AmiCheckerNegative, ACallbackListedTwice) {
  AmiChecker ck;
  ck.listed(kSender, 1);
  ck.listed(kSender, 1);
  EXPECT_EQ(failed(), only(rules::kListedOnce));
}

TEST(AmiCheckerNegative, ACallbackCalledThatWasNeverListed) {
  AmiChecker ck;
  ck.called(kSender, 3, 4);
  EXPECT_EQ(failed(), only(rules::kCalledOnceIfListed));
}

TEST(AmiCheckerNegative, ACallbackCalledBeforeTheTransferCounterPassedIt) {
  AmiChecker ck;
  ck.listed(kSender, 3);
  ck.called(kSender, 3, 3);
  EXPECT_EQ(failed(), only(rules::kCalledAfterCounter));
}

TEST(AmiCheckerNegative, APendingCountThatDisagreesWithTheListedCallbacks) {
  AmiChecker ck;
  ck.listed(kSender, 1);
  ck.pending(kSender, 0);
  EXPECT_EQ(failed(), only(rules::kPendingCount));
}

TEST(AmiCheckerNegative, AnEagerPacketAfterTheStop) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopB, 100);
  ck.eager_posted(kSender, kReceiver, kMsg, 100, 200);
  EXPECT_EQ(failed(), only(rules::kNoEagerAfterStop));
}

TEST(AmiCheckerNegative, EagerBytesWithAGap) {
  AmiChecker ck;
  ck.send_posted(kSender, kReceiver, kMsg, kSize, ami::Protocol::StopB);
  ck.eager_posted(kSender, kReceiver, kMsg, 0, 100);
  ck.eager_posted(kSender, kReceiver, kMsg, 200, 300);
  EXPECT_EQ(failed(), only(rules::kEagerInOrder));
}

TEST(AmiCheckerNegative, AStopProcessedTwice) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopB, 100);
  ck.stop_processed(kSender, kReceiver, kMsg, 100);
  EXPECT_EQ(failed(), only(rules::kStopOnce));
}

TEST(AmiCheckerNegative, AStopWhoseEDisagreesWithTheEagerBytesPosted) {
  AmiChecker ck;
  ck.send_posted(kSender, kReceiver, kMsg, kSize, ami::Protocol::StopB);
  ck.eager_posted(kSender, kReceiver, kMsg, 0, 100);
  ck.stop_processed(kSender, kReceiver, kMsg, 50);
  EXPECT_EQ(failed(), only(rules::kStopEagerBytes));
}

TEST(AmiCheckerNegative, ACtsCarryingAnotherE) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopB, 100);
  ck.cts_received(kReceiver, kSender, kMsg, 60);
  EXPECT_EQ(failed(), only(rules::kCtsCarriesE));
}

TEST(AmiCheckerNegative, AFinalGetShortOfTheBottom) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopB, 100);
  ck.cts_received(kReceiver, kSender, kMsg, 100);
  ck.get_posted(kReceiver, kSender, kMsg, 800, 1000, ami::GetKind::Bottom);
  ck.get_posted(kReceiver, kSender, kMsg, 100, 700, ami::GetKind::Final);
  EXPECT_EQ(failed(), only(rules::kFinalGet));
}

TEST(AmiCheckerNegative, APutThatDoesNotStartAtE) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopC, 300);
  ck.put_posted(kSender, kReceiver, kMsg, 200, kSize);
  EXPECT_EQ(failed(), only(rules::kPutCoversRest));
}

TEST(AmiCheckerNegative, BytesCommittedTwice) {
  AmiChecker ck;
  ck.message_arrived(kReceiver, kSender, kMsg, kSize, ami::Protocol::StopA);
  ck.committed(kReceiver, kSender, kMsg, 0, 100);
  ck.committed(kReceiver, kSender, kMsg, 50, 150);
  EXPECT_EQ(failed(), only(rules::kNoByteTwice));
}

TEST(AmiCheckerNegative, BytesCommittedTwiceByRdma) {
  AmiChecker ck;
  ck.message_arrived(kReceiver, kSender, kMsg, kSize, ami::Protocol::StopC);
  ck.committed(kReceiver, kSender, kMsg, 0, 512);
  ck.rdma_target(kReceiver, kSender, kMsg, 0x40000, kSize);
  ck.rdma_landed(kReceiver, 0x40000 + 256, 256);
  EXPECT_EQ(failed(), only(rules::kNoByteTwice));
}

TEST(AmiCheckerNegative, AReceiveCompletedWithBytesMissing) {
  AmiChecker ck;
  ck.message_arrived(kReceiver, kSender, kMsg, kSize, ami::Protocol::StopA);
  ck.committed(kReceiver, kSender, kMsg, 0, 500);
  ck.receive_done(kReceiver, kSender, kMsg);
  EXPECT_EQ(failed(), only(rules::kAllBytesOnce));
}

TEST(AmiCheckerNegative, ASendCompletedTwice) {
  AmiChecker ck;
  ck.send_posted(kSender, kReceiver, kMsg, kSize, ami::Protocol::Eager);
  ck.send_done(kSender, kReceiver, kMsg);
  ck.send_done(kSender, kReceiver, kMsg);
  EXPECT_EQ(failed(), only(rules::kSendDoneOnce));
}

TEST(AmiCheckerNegative, ASendCompletedBeforeItsAck) {
  AmiChecker ck;
  send_until_stop(ck, ami::Protocol::StopB, 100);
  ck.send_done(kSender, kReceiver, kMsg);
  EXPECT_EQ(failed(), only(rules::kSendDoneAfterAck));
}

TEST(AmiCheckerNegative, MoreTemporarySpaceInUseThanConfigured) {
  AmiChecker ck;
  ck.temp_usage(kReceiver, 5000, 4096);
  EXPECT_EQ(failed(), only(rules::kTempSpace));
}

// Every rule above is registered with the check registry as soon as a checker exists, so a
// report lists each one by name.
TEST(AmiCheckerNegative, EveryRuleIsListedInTheReport) {
  AmiChecker ck;
  const auto j = CheckRegistry::instance().to_json();
  std::vector<std::string> names;
  for (const auto& c : j["invariants"]) names.push_back(c["name"]);
  for (const char* rule :
       {rules::kFifoBound, rules::kListedOnce, rules::kCalledOnceIfListed,
        rules::kCalledAfterCounter, rules::kPendingCount, rules::kNoEagerAfterStop,
        rules::kEagerInOrder, rules::kStopOnce, rules::kStopEagerBytes, rules::kCtsCarriesE,
        rules::kFinalGet, rules::kPutCoversRest, rules::kNoByteTwice, rules::kAllBytesOnce,
        rules::kSendDoneOnce, rules::kSendDoneAfterAck, rules::kTempSpace}) {
    EXPECT_NE(std::find(names.begin(), names.end(), rule), names.end()) << rule;
  }
  EXPECT_EQ(names.size(), 17u);
}

namespace {

// Runs the (empty) kernel on to `ns`, so that what is logged next is stamped with that time.
void at(double ns) {
  sc_core::sc_start(sc_core::sc_time(ns, sc_core::SC_NS) - sc_core::sc_time_stamp());
}

// A parallel run's logs of a variant-B message: the receiver in partition 0, the sender in
// partition 1, their events interleaved in time as the wire orders them. The receiver's CTS
// carries `cts_e`; the sender processed the STOP at E = 100. Replayed in time order (not
// partition order: the CTS would then come before the STOP it answers), the logs are one
// correct message when cts_e is 100.
AmiChecker replay_partition_logs(uint32_t cts_e) {
  AmiTraceLog receiver_log, sender_log;
  ami::AmiTrace& receiver = receiver_log.trace();
  ami::AmiTrace& sender = sender_log.trace();
  const auto p = ami::Protocol::StopB;
  at(10);
  sender.send_posted(kSender, kReceiver, kMsg, kSize, p);
  sender.eager_posted(kSender, kReceiver, kMsg, 0, 100);
  at(20);
  receiver.message_arrived(kReceiver, kSender, kMsg, kSize, p);
  receiver.committed(kReceiver, kSender, kMsg, 0, 100);
  receiver.stop_sent(kReceiver, kSender, kMsg, ami::StopCause::TempSpace);
  at(30);
  sender.stop_processed(kSender, kReceiver, kMsg, 100);
  at(40);
  receiver.cts_received(kReceiver, kSender, kMsg, cts_e);
  receiver.get_posted(kReceiver, kSender, kMsg, cts_e, kSize, ami::GetKind::Final);
  receiver.rdma_target(kReceiver, kSender, kMsg, 0x1000, kSize);
  at(50);
  receiver.rdma_landed(kReceiver, 0x1000 + 100, kSize - 100);
  receiver.receive_done(kReceiver, kSender, kMsg);
  at(60);
  sender.ack_received(kSender, kReceiver, kMsg);
  sender.send_done(kSender, kReceiver, kMsg);
  at(70);  // the window's end: the replay's events keep their own times
  EXPECT_EQ(receiver_log.events() + sender_log.events(), 13u);
  const std::vector<hs::Bytes> logs{receiver_log.take(), sender_log.take()};
  EXPECT_EQ(receiver_log.events(), 0u);
  AmiChecker ck;
  receiver_log.replay(logs, ck);
  return ck;
}

}  // namespace

TEST(AmiCheckerNegative, PartitionLogsReplayedBreakNoRule) {
  const AmiChecker ck = replay_partition_logs(100);
  EXPECT_TRUE(failed().empty());
  EXPECT_EQ(ck.violations(), 0u);
  ASSERT_EQ(ck.messages().size(), 1u);
  const auto& r = ck.messages().begin()->second;
  // Each record at its event's time, whichever partition logged it.
  EXPECT_DOUBLE_EQ(r.stop_ns, 20);            // the receiver's log
  EXPECT_DOUBLE_EQ(r.stop_processed_ns, 30);  // the sender's
  EXPECT_DOUBLE_EQ(r.first_rdma_ns, 50);
  EXPECT_DOUBLE_EQ(r.done_ns, 50);
  EXPECT_EQ(r.committed_by_rdma, kSize - 100);
  EXPECT_TRUE(r.receive_done && r.send_done);
}

TEST(AmiCheckerNegative, AStopInAnotherPartitionsLogThatTheCtsMisquotes) {
  const AmiChecker ck = replay_partition_logs(90);
  EXPECT_EQ(failed(), only(rules::kCtsCarriesE));
  EXPECT_EQ(ck.violations(), 1u);
  // At the CTS's time, as the run that watched it live records it, not the replay's (70 ns).
  const auto& v = hs::CheckRegistry::instance().violations();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].at, sc_core::sc_time(40, sc_core::SC_NS));
}
