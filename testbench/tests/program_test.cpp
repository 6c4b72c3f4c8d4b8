// The program language (docs/programs.md): every statement parsed, expressions evaluated,
// each class of mistake refused with FILE:LINE:COL before the run, the example programs run
// with the same figures as the equivalent built-in workloads, and a program that cannot
// finish refused (unmatched messages) or failed (an ordering deadlock), never hung. Runs are
// forked children (a SystemC kernel elaborates once per process).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sw/apps/mpi_program.h"
#include "testbench/runner/program/program_check.h"
#include "testbench/runner/program/program_file.h"
#include "testbench/runner/program/program_parser.h"
#include "testbench/support/scenario_run.h"
#include "testbench/support/temp_path.h"
#include "tlm/common/errors.h"

using hs::InputError;
using hs::runner::program::check_program;
using hs::runner::program::parse_program;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using nlohmann::json;
namespace fp = hs::fw::program;

namespace {

// A torus of x*y*z nodes, `rpn` ranks a node in XYZT order.
fp::Layout layout(int x, int y, int z, int rpn = 1) {
  fp::Layout l;
  l.dims = {x, y, z};
  l.ranks_per_node = rpn;
  const int nodes = x * y * z;
  l.rank_at.resize(static_cast<size_t>(nodes * rpn));
  for (int r = 0; r < nodes * rpn; ++r) {
    const int node = r % nodes, t = r / nodes;
    l.place.push_back({node % x, node / x % y, node / (x * y), t});
    l.rank_at[static_cast<size_t>(node * rpn + t)] = r;
  }
  return l;
}

// The error the text gets from the parser, then from the check on a 2x2x2 torus ("" if none).
std::string mistake(const std::string& text) {
  try {
    const fp::Program p = parse_program(text, "p.txt");
    check_program(p, layout(2, 2, 2), "p.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The mistake must be reported at `where` ("p.txt:LINE:COL: ") and say `says`.
void expect_refused(const std::string& text, const std::string& where, const std::string& says) {
  const std::string e = mistake(text);
  EXPECT_EQ(e.rfind(where, 0), 0u) << e;
  EXPECT_NE(e.find(says), std::string::npos) << e;
}

// The job of mistake() has 8 ranks: a group beyond them selects nobody, so it is refused.
TEST(ProgramCheck, RankGroupsOutsideTheJobAreRefused) {
  expect_refused("ranks all { barrier }\nranks 6..9 { barrier }\n",
                 "p.txt:2:7: ", "rank range 6..9 is outside the job, whose ranks are 0..7");
  expect_refused("ranks 0, 8 { compute 10 }\n", "p.txt:1:10: ", "rank 8 is outside the job");
  expect_refused("ranks 5..2 { compute 10 }\n", "p.txt:1:7: ", "rank range 5..2 is empty");
  EXPECT_EQ(mistake("ranks 0..7 { barrier }\n"), "");
}

// Evaluates `expr` as rank `rank` of a 4x2x2 torus.
int64_t value(const std::string& expr, int rank = 0) {
  const fp::Program p = parse_program("ranks all { let v = " + expr + " }", "e.txt");
  const fp::Layout l = layout(4, 2, 2);
  fp::Env env(p, l, rank);
  return env.eval(p.groups[0].body[0].args[0]);
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = hs::testing::temp_path(name);
  std::ofstream(path) << text;
  return path;
}

std::vector<std::string> torus(int x, int y, int z) {
  return {"torus.network.x=" + std::to_string(x), "torus.network.y=" + std::to_string(y),
          "torus.network.z=" + std::to_string(z)};
}

json run_program(const std::string& path, std::vector<std::string> sets) {
  sets.push_back("workload.program=" + path);
  return run_scenario("program_ring", sets);
}

}  // namespace

// ---- Parsing ----

TEST(ProgramParse, EveryStatementParsesToItsOperation) {
  const fp::Program p = parse_program(R"(# a comment
ranks all {
  compute 100
  send 1 8 tag 3
  recv any 8 tag any
  sendrecv 1 8 0 16 tag 2
  a = isend 1 8
  b = irecv 1 8 tag 4
  wait a
  waitall b
  waitall
  barrier; bcast 0 64
  reduce 1 64 op max type int64
  allreduce 64 type double op min
  allgather 32
  alltoall 16
  loop 3 as k { compute k }
  if rank == 0 { compute 1 } else if rank == 1 { compute 2 } else { compute 3 }
  let n = size * 2
}
)",
                                      "p.txt");
  ASSERT_EQ(p.groups.size(), 1u);
  const auto& b = p.groups[0].body;
  const std::vector<fp::Op> ops = {
      fp::Op::Compute, fp::Op::Send,   fp::Op::Recv,      fp::Op::Sendrecv,  fp::Op::Isend,
      fp::Op::Irecv,   fp::Op::Wait,   fp::Op::Waitall,   fp::Op::Waitall,   fp::Op::Barrier,
      fp::Op::Bcast,   fp::Op::Reduce, fp::Op::Allreduce, fp::Op::Allgather, fp::Op::Alltoall,
      fp::Op::Loop,    fp::Op::If,     fp::Op::Let};
  ASSERT_EQ(b.size(), ops.size());
  for (size_t k = 0; k < ops.size(); ++k) EXPECT_EQ(b[k].op, ops[k]) << "statement " << k;
  EXPECT_EQ(b[0].pos.line, 3);
  EXPECT_EQ(b[0].pos.col, 3);
  EXPECT_TRUE(b[1].has_tag);
  EXPECT_TRUE(b[2].any_source && b[2].any_tag);
  EXPECT_EQ(b[3].args.size(), 5u);
  EXPECT_EQ(b[4].request, "a");
  EXPECT_EQ(b[7].requests, std::vector<std::string>{"b"});
  EXPECT_TRUE(b[8].requests.empty());
  EXPECT_EQ(b[11].reduce_op, hs::fw::mpi::Op::Max);
  EXPECT_EQ(b[11].type, hs::fw::mpi::Datatype::Int64);
  EXPECT_EQ(b[12].reduce_op, hs::fw::mpi::Op::Min);
  EXPECT_EQ(b[15].body.size(), 1u);
  EXPECT_EQ(b[16].else_body.size(), 1u);
  EXPECT_EQ(b[16].else_body[0].op, fp::Op::If);
}

TEST(ProgramParse, RankGroupsSelectTheirRanks) {
  const fp::Program p = parse_program(
      "ranks all {}\nranks even {}\nranks odd {}\nranks 1..3, 6 {}\nranks if x == 1 {}\n", "p.txt");
  const fp::Layout l = layout(4, 2, 1);
  struct None : fp::Actions {
    void compute(uint64_t) override {}
    void send(const fp::Transfer&) override {}
    void recv(const fp::Transfer&) override {}
    void sendrecv(const fp::Transfer&, const fp::Transfer&) override {}
    int isend(const fp::Transfer&) override { return 0; }
    int irecv(const fp::Transfer&) override { return 0; }
    void wait(const std::vector<std::pair<int, fp::Transfer>>&) override {}
    void collective(const fp::CollectiveOp&) override {}
  } none;
  std::vector<std::string> chosen(5);
  for (int r = 0; r < l.size(); ++r) {
    fp::RankWalk w(p, l, r, none);
    for (size_t g = 0; g < 5; ++g) {
      if (w.selects(p.groups[g].ranks)) chosen[g] += std::to_string(r);
    }
  }
  EXPECT_EQ(chosen, (std::vector<std::string>{"01234567", "0246", "1357", "1236", "15"}));
}

TEST(ProgramParse, ExpressionsFollowPrecedenceAndTheRanksCoordinates) {
  EXPECT_EQ(value("1 + 2 * 3"), 7);
  EXPECT_EQ(value("(1 + 2) * 3"), 9);
  EXPECT_EQ(value("7 / 2 + 7 % 2"), 4);
  EXPECT_EQ(value("-3 + 10"), 7);
  EXPECT_EQ(value("1 < 2 && 3 >= 3 || 0"), 1);
  EXPECT_EQ(value("!0 + (2 != 2)"), 1);
  EXPECT_EQ(value("min(4, 2) + max(4, 2) + abs(-5)"), 11);
  // Rank 5 of a 4x2x2 torus is at (1, 1, 0).
  EXPECT_EQ(value("rank * 100 + size", 5), 516);
  EXPECT_EQ(value("x * 100 + y * 10 + z", 5), 110);
  EXPECT_EQ(value("X * 100 + Y * 10 + Z + T * 1000", 5), 1422);
  // Coordinates wrap around: (1-2, 1+1, 0-1) is (3, 0, 1), rank 3 + 4 * (0 + 2 * 1) = 11.
  EXPECT_EQ(value("coord(x - 2, y + 1, z - 1)", 5), 11);
  EXPECT_EQ(value("coord(0, 0, 0)", 5), 0);
}

TEST(ProgramParse, LoopIndexAndLetsAreScopedAndEvaluatedPerIteration) {
  // Every iteration sends to rank i with tag j: 2 x 3 sends, matched by rank-specific receives.
  const fp::Program p = parse_program(R"(
ranks 0 {
  loop 2 { let d = i + 1
    loop 3 as j { send d 8 tag j } }
}
ranks 1..2 { loop 3 as j { recv 0 8 tag j } }
)",
                                      "p.txt");
  const auto census = check_program(p, layout(2, 2, 1), "p.txt");
  EXPECT_EQ(census.messages, 6u);
  EXPECT_EQ(census.bytes, 48u);
}

// ---- Every class of mistake: FILE:LINE:COL ----

TEST(ProgramErrors, UnknownStatement) {
  expect_refused("ranks all {\n  compute 5\n  sned 1 8\n}\n",
                 "p.txt:3:3: ", "unknown statement 'sned'");
}

TEST(ProgramErrors, BadExpression) {
  expect_refused("ranks all {\n  send 1 + * 2 8\n}\n",
                 "p.txt:2:12: ", "expected a number, a variable or '(', found '*'");
  expect_refused("ranks all { compute (1 + 2 }", "p.txt:1:28: ", "expected ')'");
  expect_refused("ranks all { compute min(1) }", "p.txt:1:21: ", "min takes 2 arguments, not 1");
}

TEST(ProgramErrors, UnknownVariable) {
  expect_refused("ranks all {\n  loop 2 { compute i }\n  compute i\n}\n",
                 "p.txt:3:11: ", "unknown variable 'i'");
}

TEST(ProgramErrors, DivisionByZeroAmongConstants) {
  expect_refused("ranks all { compute 10 / (3 - 3) }", "p.txt:1:24: ", "division by zero");
}

TEST(ProgramErrors, DivisionByZeroForOneRankIsFoundBeforeTheRun) {
  expect_refused("ranks all {\n  compute 100 / (5 - rank)\n}\n",
                 "p.txt:2:15: rank 5: ", "division by zero");
}

TEST(ProgramErrors, UnmatchedBraces) {
  expect_refused("ranks all {\n  loop 2 {\n    compute 1\n}\n",
                 "p.txt:1:11: ", "this '{' is never closed");
  expect_refused("ranks all {\n  compute 1\n}\n}\n",
                 "p.txt:4:1: ", "expected 'ranks' to start a group of ranks, found '}'");
}

TEST(ProgramErrors, NegativeSize) {
  expect_refused("ranks all {\n  send rank 8 - 16\n}\n",
                 "p.txt:2:3: rank 0: ", "the message size (bytes) is -8 (negative)");
}

TEST(ProgramErrors, DestinationOutOfRangeForSomeRank) {
  // Rank 7 of 8 sends to rank 8.
  expect_refused("ranks all {\n  send rank + 1 8\n}\n",
                 "p.txt:2:13: rank 7: ", "the destination rank is 8: it must be 0..7");
}

TEST(ProgramErrors, SendWithoutMatchingReceiveIsNamed) {
  // Rank 0 sends two messages with tag 5 to rank 3, which receives one.
  expect_refused(R"(ranks 0 {
  send 3 64 tag 5
  send 3 64 tag 5
}
ranks 3 {
  recv 0 64 tag 5
}
)",
                 "p.txt:3:3: rank 0: ",
                 "send to rank 3 with tag 5 has no matching receive: rank 0 sends 2 messages to "
                 "rank 3 with tag 5, which receives 1 from rank 0");
}

TEST(ProgramErrors, ReceiveWithoutMatchingSendIsNamed) {
  expect_refused("ranks 1 {\n  recv 0 8 tag 2\n}\n",
                 "p.txt:2:3: rank 1: ", "receive from rank 0 with tag 2 is never matched");
}

TEST(ProgramErrors, WildcardReceivesThatCannotAllMatch) {
  // Three messages to rank 0; it posts four receives from any source.
  expect_refused("ranks 1..3 { send 0 8 }\nranks 0 { loop 4 { recv any 8 tag any } }\n",
                 "p.txt:2:20: rank 0: ", "receive (any source, any tag) is never matched");
  // Enough wildcard receives: accepted.
  EXPECT_EQ(mistake("ranks 1..3 { send 0 8 }\nranks 0 { loop 3 { recv any 8 } }\n"), "");
}

TEST(ProgramErrors, MessageLargerThanItsReceive) {
  expect_refused("ranks 0 { send 1 100 }\nranks 1 { recv 0 64 }\n", "p.txt:1:11: rank 0: ",
                 "is 100 B, but the receive it matches (at 2:11) has room for 64 B");
}

TEST(ProgramErrors, CollectivesThatDifferBetweenRanks) {
  expect_refused("ranks all { barrier }\nranks 2 { bcast 0 8 }\n", "p.txt:2:11: rank 2: ",
                 "collective call 2 (bcast root 0 of 8 B) is never made by rank 0");
  expect_refused("ranks even { allreduce 64 }\nranks odd { allreduce 128 }\n",
                 "p.txt:2:13: rank 1: ",
                 "collective call 1 is allreduce of 128 B (sum double), but rank 0's is "
                 "allreduce of 64 B (sum double) (at 1:14)");
}

TEST(ProgramErrors, RequestsNeverWaitedForOrUnknown) {
  expect_refused("ranks all {\n  r = irecv rank 8\n  s = isend rank 8\n  wait s\n}\n",
                 "p.txt:2:3: rank 0: ", "request 'r' is never waited for");
  expect_refused("ranks all { wait q }", "p.txt:1:13: rank 0: ", "no outstanding request 'q'");
  expect_refused(
      "ranks all {\n  r = isend rank 8\n  r = isend rank 8\n  waitall\n  recv rank 8\n  "
      "recv rank 8\n}\n",
      "p.txt:3:3: rank 0: ", "request 'r' is still outstanding");
}

TEST(ProgramErrors, ReductionsNeedWholeElements) {
  expect_refused("ranks all { allreduce 12 }",
                 "p.txt:1:13: rank 0: ", "the size must be a multiple of 8");
}

TEST(ProgramErrors, ReservedWordsAndBuiltinsAreNotNames) {
  expect_refused("ranks all { let rank = 3 }",
                 "p.txt:1:17: ", "'rank' is a built-in variable and cannot be redefined");
  expect_refused("ranks all { send = isend 1 8 }", "p.txt:1:13: ", "'send' is a reserved word");
}

TEST(ProgramErrors, LexicalMistakes) {
  expect_refused("ranks all {\n  compute 3 @ 4\n}\n", "p.txt:2:13: ", "unexpected character '@'");
  expect_refused("ranks all { compute 99999999999999999999 }", "p.txt:1:21: ", "number too large");
  expect_refused("ranks all { compute 4KiB }", "p.txt:1:21: ", "'4K' is not a number");
  expect_refused("", "p.txt:1:1: ", "the program has no 'ranks' group");
}

TEST(ProgramErrors, OverflowAndHugeLoopsAreRefusedNotRun) {
  expect_refused("ranks all { compute 9223372036854775807 + 1 }",
                 "p.txt:1:41: ", "integer overflow");
  expect_refused("ranks all { loop 1000000 { loop 1000000 { compute 1 } } }",
                 "p.txt:1:", "too many statements over all ranks");
  expect_refused("ranks all { loop 1000001 { compute 1 } }",
                 "p.txt:1:13: rank 0: ", "the loop count is 1000001");
}

TEST(ProgramErrors, DeepNestingIsRefusedWithoutExhaustingTheStack) {
  expect_refused(
      "ranks all { compute " + std::string(100000, '(') + "1" + std::string(100000, ')') + " }",
      "p.txt:1:", "nested more than 32 deep");
  expect_refused("ranks all { compute " + std::string(100000, '-') + "1 }",
                 "p.txt:1:", "nested more than 32 deep");
  std::string loops = "ranks all { ";
  for (int k = 0; k < 10000; ++k) loops += "loop 1 { ";
  expect_refused(loops, "p.txt:1:", "blocks nested more than 16 deep");
  std::string chain = "ranks all { compute rank";
  for (int k = 0; k < 100000; ++k) chain += " + rank";
  expect_refused(chain + " }", "p.txt:1:", "nested more than 32 deep");
}

TEST(ProgramErrors, BuffersMustFitTheRanksMemory) {
  // Alltoall of 16 MiB a pair among 8 ranks: 128 MiB to send and 128 MiB to receive.
  expect_refused("ranks all { alltoall 16777216 }", "p.txt:1:13: rank 0: ", "does not fit");
  // Nine outstanding receives of 16 MiB.
  expect_refused(
      "ranks all {\n  a = irecv rank 16777216\n  b = irecv rank 16777216\n"
      "  c = irecv rank 16777216\n  d = irecv rank 16777216\n  e = irecv rank 16777216\n"
      "  f = irecv rank 16777216\n  g = irecv rank 16777216\n  h = irecv rank 16777216\n"
      "  k = irecv rank 16777216\n}\n",
      "p.txt:10:3: rank 0: ", "does not fit");
}

TEST(ProgramFile, RelativePathsResolveBesideTheScenarioFileThenTheCurrentDirectory) {
  const std::string dir = hs::testing::temp_path("program_dir");
  std::filesystem::create_directories(dir + "/programs");
  std::ofstream(dir + "/programs/p.txt") << "ranks all { barrier }\n";
  using hs::runner::program::resolve_program_path;
  EXPECT_EQ(resolve_program_path("programs/p.txt", dir + "/s.json:7"), dir + "/programs/p.txt");
  EXPECT_EQ(resolve_program_path("programs/p.txt", "--set workload.program=programs/p.txt"),
            "programs/p.txt");
  EXPECT_EQ(resolve_program_path("missing.txt", dir + "/s.json:7"), "missing.txt");
  EXPECT_EQ(resolve_program_path("/abs/p.txt", dir + "/s.json:7"), "/abs/p.txt");
  try {
    hs::runner::program::load_program(dir + "/nothing.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nothing.txt: cannot open the program file"),
              std::string::npos);
  }
}

// ---- Runs ----

TEST(ProgramRun, HaloProgramMatchesTheHalo3dWorkload) {
  // 4x2x2 in SMP mode: halo3d's grid (balanced factors, largest first) is the torus itself.
  const auto shape = torus(4, 2, 2);
  std::vector<std::string> sets = shape;
  sets.push_back("workload.warmup=0");
  const json builtin = run_scenario("halo3d", sets);
  const json program = run_scenario("program_halo", shape);
  ASSERT_TRUE(passed(builtin)) << violations(builtin);
  ASSERT_TRUE(passed(program)) << violations(program) << program.value("error", "");
  const json& b = builtin["results"];
  const json& p = program["results"];
  EXPECT_EQ(p["ranks_finished"], 16);
  EXPECT_EQ(p["iterations"], b["iterations"]);
  EXPECT_EQ(p["messages_per_iteration"], b["messages_per_iteration"]);  // 16 ranks x 6 faces
  EXPECT_EQ(p["bytes_per_iteration"], b["bytes_per_iteration"]);
  EXPECT_EQ(p["messages_per_iteration"].get<double>(), 96.0);
  EXPECT_EQ(p["messages_checked"], p["messages"]);
  // Every face received is checked byte for byte: 16 ranks x 6 faces x 2 KiB x 4 iterations.
  EXPECT_EQ(p["payload_bytes_verified"], 16 * 6 * 2048 * 4);
  // The same operations in the same order: the same time within a few percent.
  const double tb = b["time_per_iteration_ns"].get<double>();
  const double tp = p["time_per_iteration_ns"].get<double>();
  EXPECT_NEAR(tp / tb, 1.0, 0.01) << tp << " vs " << tb;
  EXPECT_NEAR(p["compute_fraction"].get<double>(), b["compute_fraction"].get<double>(), 0.05);
}

TEST(ProgramRun, AllreduceProgramMatchesTheAllreduceWorkload) {
  const auto shape = torus(4, 2, 2);
  std::vector<std::string> sets = shape;
  sets.insert(sets.end(), {"workload.warmup=0", "workload.bytes=64", "workload.iterations=8"});
  const json builtin = run_scenario("allreduce", sets);
  const std::string path = write_file(
      "allreduce.txt", "ranks all {\n  loop 8 {\n    compute 10000\n    allreduce 64\n  }\n}\n");
  const json program = run_program(path, shape);
  ASSERT_TRUE(passed(builtin)) << violations(builtin);
  ASSERT_TRUE(passed(program)) << violations(program) << program.value("error", "");
  const json& b = builtin["results"];
  const json& p = program["results"];
  EXPECT_EQ(p["messages_per_iteration"], b["messages_per_iteration"]);
  EXPECT_EQ(p["bytes_per_iteration"], b["bytes_per_iteration"]);
  EXPECT_EQ(p["collectives_verified"], 8);
  EXPECT_NEAR(p["time_per_iteration_ns"].get<double>() / b["time_per_iteration_ns"].get<double>(),
              1.0, 0.05);
}

TEST(ProgramRun, RingExampleSendsWhatItSaysAndVerifiesEveryByte) {
  const json r = run_scenario("program_ring", torus(2, 2, 2));
  ASSERT_TRUE(passed(r)) << violations(r) << r.value("error", "");
  const json& w = r["results"];
  // 8 ranks x 8 iterations of 64 KiB, then 7 reports of 64 B to rank 0.
  EXPECT_EQ(w["messages"], 8 * 8 + 7);
  EXPECT_EQ(w["bytes"], 8 * 8 * 65536 + 7 * 64);
  EXPECT_EQ(w["point_to_point_messages"], w["messages"]);
  EXPECT_EQ(w["payload_bytes_verified"], w["bytes"]);
  EXPECT_EQ(w["messages_checked"], w["messages"]);
  EXPECT_EQ(w["iterations"], 8);
  EXPECT_EQ(w["messages_per_iteration"].get<double>(), 8.0);
  EXPECT_GT(w["compute_fraction"].get<double>(), 0.0);
  EXPECT_LT(w["compute_fraction"].get<double>(), 1.0);
}

TEST(ProgramRun, CollectivesExampleHasEveryResultVerified) {
  const json r = run_scenario("program_collectives", torus(2, 2, 2));
  ASSERT_TRUE(passed(r)) << violations(r) << r.value("error", "");
  EXPECT_EQ(r["results"]["ranks"], 16);
  EXPECT_EQ(r["results"]["collectives_verified"], 4 * 5 + 2);
  EXPECT_EQ(r["results"]["collective_calls_per_rank"], 4 * 5 + 2);
}

TEST(ProgramRun, StaticallyUnmatchedSendIsRefusedBeforeTheRun) {
  const std::string path = write_file("unmatched.txt",
                                      "ranks all {\n  send (rank + 1) % size 8\n}\nranks 0 {\n  "
                                      "recv size - 1 8\n}\n");
  const json r = run_program(path, torus(2, 2, 1));
  ASSERT_FALSE(r.contains("status")) << r.dump();
  const std::string e = r.value("error", "");
  EXPECT_NE(e.find("parameter 'workload.program': " + path +
                   ":2:3: rank 0: send to rank 1 with "
                   "tag 0 has no matching receive"),
            std::string::npos)
      << e;
}

TEST(ProgramRun, TheDeepestNestingAllowedRunsOnTheCoresThreads) {
  // 15 loops in a group's block, and a chain of 31 operators: the limits, walked on each
  // core's own stack.
  std::string text = "ranks all {\n";
  for (int k = 0; k < 15; ++k) text += "loop 1 {\n";
  text += "compute 1";
  for (int k = 0; k < 30; ++k) text += " + rank";
  text += "\nsendrecv (rank + 1) % size 8 (rank + size - 1) % size 8\n";
  text += std::string(15, '}') + "\n}\n";
  const json r = run_program(write_file("deep.txt", text), torus(2, 2, 1));
  ASSERT_TRUE(passed(r)) << violations(r) << r.value("error", "");
  EXPECT_EQ(r["results"]["messages"], 4);
}

TEST(ProgramRun, OrderingDeadlockFailsTheRunInsteadOfHanging) {
  // Counts match, but every rank receives before it sends.
  const std::string path =
      write_file("deadlock.txt",
                 "ranks all {\n  recv (rank + 1) % size 8\n  send (rank + size - 1) % size 8\n}\n");
  const json r = run_program(path, torus(2, 2, 1));
  EXPECT_EQ(r.value("status", ""), "failed") << r.dump();
  EXPECT_NE(violations(r).find("deadlock"), std::string::npos) << violations(r);
  // Each stuck rank is named with the statement it is stuck in.
  const std::string file = std::filesystem::path(path).filename().string();
  EXPECT_NE(violations(r).find("waiting for an interrupt, in " + file + ":2 recv > mpi wait"),
            std::string::npos)
      << violations(r);
}
