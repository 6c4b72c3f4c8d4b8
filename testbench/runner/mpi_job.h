// An MPI job on the torus machine, shared by the workloads that run one: the mpi.* parameters
// (node mode, mapping, protocol thresholds, collective algorithms), the rank map, each rank's
// firmware on its own core, and the MPI checker. Bad input is refused before the run
// (InputError): an unknown mode, mapping or algorithm, a mapping file's mistakes (file:line),
// too few cores, FIFOs or counter groups for the mode.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "sw/apps/mpi_motifs.h"
#include "sw/mpi/collectives.h"
#include "testbench/checkers/mpi_checker.h"
#include "testbench/runner/torus_model.h"

namespace hs::runner {

struct MpiJob {
  fw::mpi::MpiConfig cfg;
  fw::mpi::Algorithms algorithms;
  fw::mpi::NodeMode mode = fw::mpi::NodeMode::Smp;
  std::string mapping;  // the order, or the mapping file
  std::shared_ptr<const fw::mpi::RankMap> map;
  std::shared_ptr<checkers::MpiChecker> checker;
  // A parallel run: the partition's trace events, replayed into the checker at the reporting
  // partition at each window's end (mpi_checker.h); null in a sequential run, where the
  // checker watches the ranks live.
  std::shared_ptr<checkers::MpiTraceLog> log;
  std::vector<fw::mpi::RankCounts> counts;  // per rank, when its program has finished
  std::vector<bool> finished;
  double core_hz = 0;

  int ranks() const { return map->size(); }
  // Where the ranks' layer reports its trace events: the checker, or the partition's log.
  fw::mpi::MpiTrace* trace() const;
  // The job's figures: mode, mapping, ranks, messages and bytes, what the checker verified.
  nlohmann::json json() const;
};

// Declares the mpi.* parameters and builds the job on `m` (the checker armed).
std::shared_ptr<MpiJob> declare_mpi_job(TorusModel& m);

// A workload's own figures of one rank, for a parallel run: written where the rank ran and
// read back, rank by rank in partition order, at the reporting partition.
struct RankFigures {
  std::function<void(int rank, ByteWriter&)> save;
  std::function<void(int rank, ByteReader&)> merge;
};

// A workload's own figures of the whole partition (beyond its ranks'), for a parallel run.
struct PartitionFigures {
  std::function<void(ByteWriter&)> save;
  std::function<void(ByteReader&)> merge;
};

// Runs `program` as every rank, each on its node's core t, after the layer's set-up. In a
// parallel run only this partition's ranks run here, and the job's figures (each rank's
// counts, whether it finished, and `figures`) reach the reporting partition at the end.
using RankProgram = std::function<void(fw::mpi::Comm&, fw::mpi::Collectives&)>;
void install_ranks(TorusModel& m, const std::shared_ptr<MpiJob>& job, RankProgram program,
                   RankFigures figures = {});

// What install_ranks hands the reporting partition, for a workload that runs its ranks itself:
// each of this partition's ranks' counts, whether it finished and `figures`, then `partition`.
void gather_job_figures(TorusModel& m, const std::shared_ptr<MpiJob>& job, RankFigures figures,
                        PartitionFigures partition = {});

// The motifs' workload.iterations (timed) and workload.warmup (untimed, first).
void declare_iterations(int& iterations, int& warmup);

// Runs `motif` as every rank, each filling its own Timing (the returned vector, by rank).
using MotifProgram =
    std::function<void(fw::mpi::Comm&, fw::mpi::Collectives&, fw::motifs::Timing&)>;
std::shared_ptr<std::vector<fw::motifs::Timing>> install_motif(TorusModel& m,
                                                               const std::shared_ptr<MpiJob>& job,
                                                               MotifProgram motif);

// A rank's Timing for a parallel run, and each rank's of a motif as RankFigures.
void save_timing(const fw::motifs::Timing& t, ByteWriter& w);
fw::motifs::Timing load_timing(ByteReader& r);
RankFigures timing_figures(std::shared_ptr<std::vector<fw::motifs::Timing>> timing);

// Declares the results motif_json reports (install_motif does it).
void declare_motif_results(TorusModel& m);
// A motif's figures from every rank's timing: time per iteration (the slowest rank's mean and
// the mean over ranks), the compute/communication split, and messages and bytes per
// iteration over all ranks.
nlohmann::json motif_json(const MpiJob& job, const std::vector<fw::motifs::Timing>& timing);

}  // namespace hs::runner
