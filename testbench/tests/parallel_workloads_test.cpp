// The torus workloads with firmware on the nodes, run partitioned under mpirun -np P: each
// process runs only its own nodes' firmware, and the report (results, statistics, checks: all
// but the wall-clock figures under "run") and the link CSV are the sequential run's, whatever
// P or the partitioner. Slabs across z of a 4-plane ring cut the wrap-around link (z3 -> z0)
// whenever P > 1; boxes cut every axis. The runs are small (4x4x4, a few iterations) and
// oversubscribed, so that CI's two cores run them in a few seconds each.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/support/cli_run.h"
#include "testbench/support/mpirun.h"
#include "testbench/support/same_as_sequential.h"

using Json = nlohmann::json;
using hs::testing::expect_same_as_sequential;

namespace {

const std::string kTorus =
    " --set torus.network.x=4 --set torus.network.y=4 --set torus.network.z=4";

// An MPI job's report: every rank finished and the checker matched what they sent.
void expect_whole_job(const Json& report) {
  const Json& r = report["results"];
  EXPECT_EQ(r["ranks_finished"], r["ranks"]) << r.dump();
  EXPECT_GT(r["messages"].get<double>(), 0) << r.dump();
  EXPECT_EQ(r["messages_checked"], r["messages"]) << r.dump();
}

}  // namespace

// The scaling target: a rank on every node swapping faces with its 6 neighbours.
TEST(ParallelWorkloads, Halo3dIsTheSequentialRunAtEveryProcessCount) {
  const Json r = expect_same_as_sequential("halo3d" + kTorus, {1, 2, 3, 4, 8});
  expect_whole_job(r);
  EXPECT_EQ(r["results"]["grid"], "4x4x4");
}

// 26 neighbours: edges and corners cross two and three cuts of the boxes.
TEST(ParallelWorkloads, Halo3dWith26NeighboursIsTheSequentialRun) {
  expect_whole_job(expect_same_as_sequential(
      "halo3d" + kTorus + " --set workload.neighbours=26 --set workload.iterations=2", {3, 8}));
}

TEST(ParallelWorkloads, AllreduceIsTheSequentialRun) {
  const Json r = expect_same_as_sequential("allreduce" + kTorus, {2, 3});
  expect_whole_job(r);
  EXPECT_GT(r["results"]["collectives_verified"].get<double>(), 0);
}

TEST(ParallelWorkloads, Sweep3dIsTheSequentialRun) {
  expect_whole_job(expect_same_as_sequential("sweep3d" + kTorus, {2, 4}));
}

TEST(ParallelWorkloads, PingpongPairsIsTheSequentialRun) {
  // Rank r with r + 32: every pair crosses the cut between the two halves along z.
  expect_whole_job(expect_same_as_sequential(
      "pingpong_pairs" + kTorus + " --set workload.pairing=bisection", {2, 3}));
}

TEST(ParallelWorkloads, RandomPermutationIsTheSequentialRun) {
  expect_whole_job(expect_same_as_sequential("random_permutation" + kTorus, {2, 8}));
}

TEST(ParallelWorkloads, TransposeIsTheSequentialRun) {
  expect_whole_job(expect_same_as_sequential("transpose" + kTorus, {3, 4}));
}

// A program file (docs/programs.md) run by every rank.
TEST(ParallelWorkloads, ProgramIsTheSequentialRun) {
  const Json r = expect_same_as_sequential("program_halo" + kTorus, {2, 4});
  expect_whole_job(r);
  EXPECT_GT(r["results"]["payload_bytes_verified"].get<double>(), 0);
}

// Every collective with its result verified, broadcasts by deposit bit: a deposit packet drops
// a copy at every router of its line along x, which the slabs across x cut.
TEST(ParallelWorkloads, DepositBitBroadcastsAreTheSequentialRun) {
  const Json r = expect_same_as_sequential(
      "mpi_conformance --set torus.network.x=4 --set torus.network.y=2 --set torus.network.z=2 "
      "--set mpi.mode=smp --set mpi.algorithm.bcast=deposit_rectangle "
      "--set workload.largest_message=4000",
      {2, 3, 4});
  expect_whole_job(r);
  EXPECT_GT(r["stats"]["torus.network"]["deposited_copies"].get<double>(), 0);
  EXPECT_GT(r["results"]["collectives_verified"].get<double>(), 0);
}

// Node A (0,0,0) and node B (2,2,2) lie in different partitions for every P below.
TEST(ParallelWorkloads, TorusPingpongIsTheSequentialRunInEveryProtocol) {
  for (const char* protocol : {"eager", "rendezvous", "split"}) {
    const Json r = expect_same_as_sequential(
        std::string("torus_pingpong") + kTorus +
            " --set workload.hops=6 --set workload.bytes=20000 --set workload.protocol=" + protocol,
        std::string(protocol) == "split" ? std::vector<int>{2, 3, 4, 8} : std::vector<int>{2, 3});
    EXPECT_EQ(r["results"]["data_verified"], true);
    EXPECT_EQ(r["results"]["round_trips_ns"].size(), 3u);
  }
}

// CRC errors on every link, and a burst on x0y0z1 -> x0y0z2, which two slabs across z cut:
// the NAKs and retransmissions hold the cut link, and a packet crosses once its good copy does.
TEST(ParallelWorkloads, CrcErrorsOnCutLinksUnderFirmwareAreTheSequentialRun) {
  const Json r = expect_same_as_sequential(
      "halo3d" + kTorus +
          " --set workload.iterations=2 --set torus.network.link_crc_error_rate=0.02 "
          "--set torus.network.link_crc_error_at=x0y0z1:+z#1",
      {2, 3});
  EXPECT_GT(r["stats"]["torus.network"]["crc_errors"].get<double>(), 0);
}

// Failed links: the network standing still is seen only on the whole machine, at a window's
// end; the run fails where the sequential one does, naming the same stuck traffic.
TEST(ParallelWorkloads, FailedLinksStopTheRunWhereTheSequentialRunStops) {
  const Json r = expect_same_as_sequential(
      "torus_traffic" + kTorus +
          " --set workload.load=0.3 --set workload.warmup=200 --set workload.duration=1500 "
          "--set torus.network.routing=deterministic --set workload.vc=deterministic "
          "--set torus.network.failed_links=x1y0z0:+x@700,x0y1z1:+z",
      {2, 3, 4, 8}, "failed");
  EXPECT_EQ(r["checks"]["violations"][0]["check"],
            "torus links: no traffic is stuck behind a failed link");
  EXPECT_FALSE(r["results"]["stuck_traffic"].empty());
}

// A ping-pong whose route crosses a link that fails mid-run, with its two nodes in different
// slabs across x.
TEST(ParallelWorkloads, FailedLinkUnderFirmwareIsTheSequentialRun) {
  const Json r = expect_same_as_sequential(
      "torus_pingpong" + kTorus +
          " --set workload.bytes=4096 --set workload.hops=2 --set workload.iterations=20 "
          "--set torus.network.routing=deterministic "
          "--set torus.network.failed_links=x1y0z0:+x@20000 --set torus.partition.axis=x",
      {2, 4}, "failed");
  EXPECT_FALSE(r["results"]["stuck_traffic"].empty());
}
