// A run partitioned over processes (mpirun -np P; docs/parallel.md): each process drives its
// partition of the machine in its own SystemC kernel, and the processes advance together in
// conservative windows.
//
// Rules:
// - A window is never longer than the model's lookahead, the shortest delay of a message
//   across a cut: what a partition sends during a window lands at or after its end, so no
//   partition ever receives a message for a time it has passed. Messages keep the place in
//   the order their sender gave them (tlm/timing/timeline.h): each partition runs its events
//   exactly as the sequential run does.
// - At each window's end the partitions exchange their cut messages with their neighbours,
//   hand the reporting partition what a checker of the whole machine logged in the window
//   (only a model that has one: replays_each_window), which it replays, and vote: the
//   earliest next event anywhere (the next window starts there, skipping idle stretches),
//   and whether any wants to stop (a signal, a failed check, the replay's included). A run
//   ends when no partition has an event left, at the time of the last one (never a window's
//   end), or when the vote stops it (on a violation, never before the earliest one);
//   sim.stop_at and sim.time_limit end it where the sequential run would.
// - The reporting process (partition 0) then adds every other partition's statistics, checks
//   and model figures to its own, in partition order, and alone writes the outputs.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/runner/run_loop.h"
#include "tlm/parallel/bytes.h"
#include "tlm/parallel/process_group.h"

namespace hs::runner {

// What a model that runs partitioned provides to the engine.
class PartitionedModel {
 public:
  virtual ~PartitionedModel() = default;
  // The shortest delay of a message across a cut, in picoseconds (> 0).
  virtual uint64_t lookahead_ps() const = 0;
  // The partitions this one exchanges messages with, and the messages for them since the last
  // call (one buffer each, in that order); a neighbour's messages, received.
  virtual const std::vector<int>& neighbours() const = 0;
  virtual std::vector<Bytes> take_cut_messages() = 0;
  virtual void receive_cut_messages(const Bytes& in) = 0;
  virtual uint64_t cut_messages_sent() const = 0;
  // The model's own figures (beyond statistics and checks), and another partition's added.
  virtual Bytes save_partition() const = 0;
  virtual void merge_partition(const Bytes& b) = 0;
  // "slabs across z: 2 partitions of 2 planes"
  virtual std::string partitioning() const = 0;
  // The nodes (or other replicated parts) this partition built.
  virtual uint64_t nodes_built() const = 0;
  // What only the whole machine shows (a network standing still): the partition's terms, added
  // up over every partition at each window's end, and whether those sums (the same in every
  // partition) end the run as a failed check, which the reporting partition then records.
  virtual std::vector<uint64_t> window_sums() const { return {}; }
  virtual bool stop_on(const std::vector<uint64_t>& /*sums*/) { return false; }
  // The place of each of this partition's cores (Model::cores(), in that order) in the whole
  // machine's order of cores: how the partitions' unfinished cores are listed as one.
  virtual std::vector<uint64_t> core_places() const = 0;
  // A checker that watches the whole machine at once (testbench/checkers/partition_log.h):
  // when the model has one (alike in every partition), each partition's events of the window
  // reach partition 0 at each window's end, before the vote, and partition 0 replays them, so
  // a violation found there stops the run at this window's end, as a live check's does.
  virtual bool replays_each_window() const { return false; }
  virtual Bytes take_window_log() { return {}; }
  virtual void replay_window_logs(const std::vector<Bytes>& /*by_partition*/) {}
  // What the reporting partition shows as the run goes on (a user's program's output): when
  // the model has any (alike in every partition), each partition's records since the last
  // window's end reach partition 0 at each window's end, after the vote.
  virtual bool shows_each_window() const { return false; }
  virtual Bytes take_window_records() { return {}; }
  virtual void show_window_records(const std::vector<Bytes>& /*by_partition*/) {}
};

// The workloads that run partitioned, and the refusal of any other for a parallel run.
const std::vector<std::string>& partitionable_workloads();
void require_partitionable(const std::string& scenario, const std::string& workload,
                           const std::string& launcher, int processes);

// How the windows went in one partition.
struct PartitionTimes {
  uint64_t windows = 0, cut_messages = 0;
  uint64_t nodes_built = 0;  // the partition's own nodes, the only ones it builds
  double peak_rss_mib = 0;   // the process's peak resident memory
  // Its proportional set size at the run's end (Linux; 0 elsewhere): resident memory with each
  // page that k processes share (the program, SystemC, Open MPI) counted as 1/k, so the
  // partitions' sizes add up to the memory the run takes, shared pages once.
  double pss_at_end_mib = 0;
  double work_s = 0;  // running its own events
  double sync_s = 0;  // exchanging and voting (waiting for the slowest partition included)
};

// This process's proportional set size now, in MiB: the Pss line of /proc/self/smaps_rollup
// (Linux), 0 where there is none.
double pss_mib();

// Runs the partitions to the end (see the rules); every process calls it.
RunEnd run_partitioned(const RunLimits& limits, RunInterrupt& interrupt, ProcessGroup& group,
                       PartitionedModel& model, PartitionTimes& times);

// Adds every other partition's figures to partition 0's (statistics, checks, the model's own);
// returns the partitions' times at partition 0 (in partition order), nothing elsewhere.
std::vector<PartitionTimes> merge_partitions(ProcessGroup& group, PartitionedModel& model,
                                             const PartitionTimes& mine);

// The report's run.parallel section, at partition 0: the partitioning, the windows, and each
// partition's work, synchronisation wait and cut traffic (docs/parallel.md).
nlohmann::json parallel_json(const PartitionedModel& model, const PartitionTimes& mine,
                             const std::vector<PartitionTimes>& partitions, double wall_s);

}  // namespace hs::runner
