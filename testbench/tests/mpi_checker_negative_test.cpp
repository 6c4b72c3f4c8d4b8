// Every MPI checker rule proven to fire. The checker's inputs are the layer's trace port and
// the ranks' memory: each test drives them with what a faulty layer would produce and asserts
// the violation is reported under exactly that rule's name. The correct sequences break
// nothing, so the failures come from the faults alone.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "testbench/checkers/mpi_checker.h"
#include "tlm/check/checker.h"

using namespace hs;
namespace mpi = hs::fw::mpi;
namespace rules = hs::checkers::mpi_rules;
using hs::checkers::MpiChecker;

namespace {

constexpr int kRanks = 4;

// The ranks' memories: a byte map per rank.
struct Memory {
  std::map<int, std::map<uint64_t, uint8_t>> bytes;
  void write(int rank, uint64_t addr, const std::vector<int64_t>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      uint8_t b[8];
      std::memcpy(b, &v[i], 8);
      for (int k = 0; k < 8; ++k) bytes[rank][addr + i * 8 + static_cast<uint64_t>(k)] = b[k];
    }
  }
  MpiChecker::Peek peek() {
    return [this](int rank, uint64_t addr, void* dst, size_t len) {
      auto* d = static_cast<uint8_t*>(dst);
      for (size_t i = 0; i < len; ++i) d[i] = bytes[rank][addr + i];
    };
  }
};

std::vector<std::string> failed() {
  return CheckRegistry::instance().failed_checks();
}
std::vector<std::string> only(const char* rule) {
  return {rule};
}

mpi::CollectiveCall allreduce(uint64_t call = 0) {
  mpi::CollectiveCall c;
  c.kind = mpi::Collective::Allreduce;
  c.call = call;
  c.send = 0x100;
  c.recv = 0x200;
  c.bytes = 16;
  return c;
}

// An allreduce of {r, 10 r} on every rank r; `result` is what each rank ends with.
void run_allreduce(MpiChecker& ck, Memory& mem, const std::vector<int64_t>& result) {
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x100, {r, 10 * r});
    ck.collective_begin(r, allreduce());
  }
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x200, result);
    ck.collective_end(r, allreduce());
  }
}

}  // namespace

TEST(MpiCheckerNegative, CorrectTrafficBreaksNoRule) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.sent(0, 1, 0, 5, 1, 8);
  ck.matched(1, 0, 0, 5, 0, 8);
  ck.matched(1, 0, 0, 5, 1, 8);
  ck.received(1, 0, 0, 5, 1, 8);
  ck.received(1, 0, 0, 5, 0, 8);
  run_allreduce(ck, mem, {0 + 1 + 2 + 3, 60});
  ck.finish();
  EXPECT_TRUE(failed().empty());
  EXPECT_EQ(ck.collectives_verified(), 1u);
}

TEST(MpiCheckerNegative, AMatchOfAMessageNeverSent) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.matched(1, 0, 0, 5, 0, 8);
  EXPECT_EQ(failed(), only(rules::kMatchedSent));
}

TEST(MpiCheckerNegative, AMatchWithTheWrongSize) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.matched(1, 0, 0, 5, 0, 16);
  EXPECT_EQ(failed(), only(rules::kMatchedSent));
}

TEST(MpiCheckerNegative, AMessageMatchedTwice) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.matched(1, 0, 0, 5, 0, 8);
  ck.matched(1, 0, 0, 5, 0, 8);
  EXPECT_EQ(failed(), only(rules::kMatchedOnce));
}

TEST(MpiCheckerNegative, AMessageReceivedWithoutAMatch) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.received(1, 0, 0, 5, 0, 8);
  EXPECT_EQ(failed(), only(rules::kMatchedOnce));
}

TEST(MpiCheckerNegative, ALaterMessageWithTheSameTagMatchedFirst) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.sent(0, 1, 0, 5, 1, 8);
  ck.matched(1, 0, 0, 5, 1, 8);
  EXPECT_EQ(failed(), only(rules::kInOrder));
}

TEST(MpiCheckerNegative, OtherTagsMayBeMatchedInAnyOrder) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.sent(0, 1, 0, 6, 1, 8);
  ck.matched(1, 0, 0, 6, 1, 8);
  ck.matched(1, 0, 0, 5, 0, 8);
  EXPECT_TRUE(failed().empty());
}

TEST(MpiCheckerNegative, AMessageNeverReceivedByTheEnd) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  ck.sent(0, 1, 0, 5, 0, 8);
  ck.finish();
  EXPECT_EQ(failed(), only(rules::kAllReceived));
}

TEST(MpiCheckerNegative, RanksDisagreeOnTheRoot) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  mpi::CollectiveCall c;
  c.kind = mpi::Collective::Bcast;
  c.recv = 0x300;
  c.bytes = 8;
  ck.collective_begin(0, c);
  c.root = 1;
  ck.collective_begin(1, c);
  EXPECT_EQ(failed(), only(rules::kSameCall));
}

TEST(MpiCheckerNegative, AlltoallvCountsThatDoNotPair) {
  Memory mem;
  MpiChecker ck(2, mem.peek());
  mpi::CollectiveCall c;
  c.kind = mpi::Collective::Alltoallv;
  c.send = 0x100;
  c.recv = 0x200;
  c.send_displs = c.recv_displs = {0, 8};
  c.send_counts = {8, 8};
  c.recv_counts = {8, 0};  // rank 1 sends 8 B that no one expects
  for (int r = 0; r < 2; ++r) ck.collective_begin(r, c);
  for (int r = 0; r < 2; ++r) ck.collective_end(r, c);
  EXPECT_EQ(failed(), only(rules::kSameCall));
}

TEST(MpiCheckerNegative, ARankLeavesTheBarrierEarly) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  mpi::CollectiveCall c;
  for (int r = 0; r < kRanks - 1; ++r) ck.collective_begin(r, c);
  ck.collective_end(0, c);
  EXPECT_EQ(failed(), only(rules::kBarrier));
}

TEST(MpiCheckerNegative, AWrongAllreduceResult) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  run_allreduce(ck, mem, {6, 61});
  EXPECT_EQ(failed(), only(rules::kResult));
}

TEST(MpiCheckerNegative, AnAlltoallBlockFromTheWrongRank) {
  Memory mem;
  MpiChecker ck(2, mem.peek());
  mpi::CollectiveCall c;
  c.kind = mpi::Collective::Alltoall;
  c.send = 0x100;
  c.recv = 0x200;
  c.bytes = 8;
  mem.write(0, 0x100, {100, 101});
  mem.write(1, 0x100, {110, 111});
  for (int r = 0; r < 2; ++r) ck.collective_begin(r, c);
  mem.write(0, 0x200, {100, 110});
  mem.write(1, 0x200, {110, 111});  // block 0 should be rank 0's block 1: 101
  for (int r = 0; r < 2; ++r) ck.collective_end(r, c);
  EXPECT_EQ(failed(), only(rules::kResult));
}

TEST(MpiCheckerNegative, ACollectiveSomeRankNeverFinished) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  for (int r = 0; r < kRanks; ++r) ck.collective_begin(r, allreduce());
  ck.finish();
  EXPECT_EQ(failed(), only(rules::kResult));
}

// ---- Sub-communicators: each call checked among its group's ranks. ----

namespace {
// Communicator 1 split into {0, 2} and {1, 3}: an allreduce of {r, 10 r} on each; `result`
// gives what world rank r ends with.
void run_split_allreduce(MpiChecker& ck, Memory& mem,
                         const std::map<int, std::vector<int64_t>>& result) {
  const auto call = [](int r) {
    mpi::CollectiveCall c = allreduce();
    c.comm = 1;
    c.group = r % 2 == 0 ? std::vector<int>{0, 2} : std::vector<int>{1, 3};
    return c;
  };
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x100, {r, 10 * r});
    ck.collective_begin(r, call(r));
  }
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x200, result.at(r));
    ck.collective_end(r, call(r));
  }
}
}  // namespace

TEST(MpiCheckerNegative, DisjointSubCommunicatorsAreEachVerified) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  run_split_allreduce(ck, mem, {{0, {2, 20}}, {2, {2, 20}}, {1, {4, 40}}, {3, {4, 40}}});
  ck.finish();
  EXPECT_TRUE(failed().empty());
  EXPECT_EQ(ck.collectives_verified(), 2u);
}

TEST(MpiCheckerNegative, ASubCommunicatorResultReducedOverTheWorld) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  run_split_allreduce(ck, mem, {{0, {6, 60}}, {2, {6, 60}}, {1, {4, 40}}, {3, {4, 40}}});
  EXPECT_EQ(failed(), only(rules::kResult));
}

TEST(MpiCheckerNegative, ARankOutsideTheGroupJoinsItsCall) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  mpi::CollectiveCall c;
  c.comm = 1;
  c.group = {0, 2};
  ck.collective_begin(0, c);
  ck.collective_begin(1, c);
  EXPECT_EQ(failed(), only(rules::kSameCall));
}

// The collectives MPI programs add are verified the same way: a scan whose prefix is wrong, a
// gatherv block from the wrong rank, and a reduction by a user's operation (which the checker
// cannot compute) counted as unverified rather than passed.
TEST(MpiCheckerNegative, AWrongScanPrefix) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  mpi::CollectiveCall c = allreduce();
  c.kind = mpi::Collective::Scan;
  c.bytes = 8;
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x100, {r + 1});
    ck.collective_begin(r, c);
  }
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x200, {(r + 1) * (r + 2) / 2 + (r == 2 ? 1 : 0)});  // rank 2's is one off
    ck.collective_end(r, c);
  }
  EXPECT_EQ(failed(), only(rules::kResult));
}

TEST(MpiCheckerNegative, AGathervBlockLandsWhereAnotherRanksBelongs) {
  Memory mem;
  MpiChecker ck(2, mem.peek());
  mpi::CollectiveCall c;
  c.kind = mpi::Collective::Gatherv;
  c.send = 0x100;
  c.recv = 0x200;
  c.root = 0;
  c.recv_counts = {8, 16};
  c.recv_displs = {16, 0};
  mem.write(0, 0x100, {7});
  mem.write(1, 0x100, {8, 9});
  c.bytes = 8;
  ck.collective_begin(0, c);
  c.bytes = 16;
  ck.collective_begin(1, c);
  mem.write(0, 0x200, {8, 9, 9});  // rank 0's block (at 16) should be 7
  c.bytes = 8;
  ck.collective_end(0, c);
  c.bytes = 16;
  ck.collective_end(1, c);
  EXPECT_EQ(failed(), only(rules::kResult));
}

TEST(MpiCheckerNegative, AUserOperationsReductionIsCountedUnverified) {
  Memory mem;
  MpiChecker ck(kRanks, mem.peek());
  mpi::UserOp op;
  mpi::CollectiveCall c = allreduce();
  c.op = mpi::Op::User;
  c.user = &op;
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x100, {r, r});
    ck.collective_begin(r, c);
  }
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x200, {42, 42});
    ck.collective_end(r, c);
  }
  ck.finish();
  EXPECT_TRUE(failed().empty());
  EXPECT_EQ(ck.collectives_verified(), 0u);
  EXPECT_EQ(ck.collectives_unverified(), 1u);
}

namespace {

// A parallel run's logs: ranks 0 and 1 in partition 0, ranks 2 and 3 in partition 1. Rank 0
// sends to rank 3, and every rank joins an allreduce whose result on rank 3 is `last`; each
// rank's memory changes after the run, so only what the logs took as it happened is checked.
void replay_partition_logs(const std::vector<int64_t>& last) {
  Memory mem;
  hs::checkers::MpiTraceLog part0(kRanks, mem.peek()), part1(kRanks, mem.peek());
  const auto log = [&](int rank) -> hs::checkers::MpiTraceLog& { return rank < 2 ? part0 : part1; };
  log(0).sent(0, 3, 0, 5, 0, 8);
  log(3).matched(3, 0, 0, 5, 0, 8);
  log(3).received(3, 0, 0, 5, 0, 8);
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x100, {r, 10 * r});
    log(r).collective_begin(r, allreduce());
  }
  for (int r = 0; r < kRanks; ++r) {
    mem.write(r, 0x200, r == 3 ? last : std::vector<int64_t>{6, 60});
    log(r).collective_end(r, allreduce());
  }
  for (int r = 0; r < kRanks; ++r) mem.write(r, 0x200, {0, 0});
  const std::vector<hs::Bytes> logs{part0.take(), part1.take()};
  MpiChecker ck(kRanks, [&](int, uint64_t, void* dst, size_t len) { part0.replay_peek(dst, len); });
  part0.replay(logs, ck);
  ck.finish();
  EXPECT_EQ(ck.messages(), 1u);
}

}  // namespace

TEST(MpiCheckerNegative, PartitionLogsReplayedBreakNoRule) {
  replay_partition_logs({6, 60});
  EXPECT_TRUE(failed().empty());
}

TEST(MpiCheckerNegative, AWrongResultInAnotherPartitionsLog) {
  replay_partition_logs({6, 61});
  EXPECT_EQ(failed(), only(rules::kResult));
}
