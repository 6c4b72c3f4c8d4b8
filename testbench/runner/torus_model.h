// The torus machine as a runnable model, with its checkers armed, and the workloads that run
// on it (each in its own file under workloads/).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/torus/network/link_load.h"
#include "hw/torus/node/torus_machine.h"
#include "testbench/checkers/torus_checkers.h"
#include "testbench/runner/model.h"
#include "testbench/runner/parallel_run.h"

namespace hs::runner {

class TorusModel : public Model, public PartitionedModel {
 public:
  static constexpr const char* kMachine = "torus";
  TorusModel();
  std::vector<Core*> cores() const override { return machine.cores(); }
  // The workload's figures, then link utilisation by direction over the links' window.
  nlohmann::json workload_results() const override;
  bool has_links() const override { return true; }
  std::optional<std::string> link_csv() const override { return links.csv(); }

  torus::TorusMachine machine;
  checkers::TorusCheckers checkers;
  torus::LinkLoad links;  // the whole run unless the workload gives a measurement window
  std::string core_note(const Core* c) const override { return core_notes ? core_notes(c) : ""; }

  // Partitioned runs: the network's cut traffic, and the figures of the network, the links and
  // the workload (a workload that runs partitioned sets save_workload and merge_workload).
  PartitionedModel* partitioned() override { return save_workload ? this : nullptr; }
  uint64_t lookahead_ps() const override { return machine.network->lookahead_ps(); }
  const std::vector<int>& neighbours() const override { return machine.partition->neighbours(); }
  std::vector<Bytes> take_cut_messages() override { return machine.network->take_cut_messages(); }
  void receive_cut_messages(const Bytes& in) override { machine.network->receive_cut_messages(in); }
  uint64_t cut_messages_sent() const override { return machine.network->cut_messages_sent(); }
  Bytes save_partition() const override;
  void merge_partition(const Bytes& b) override;
  std::string partitioning() const override { return machine.partition->description(); }
  uint64_t nodes_built() const override { return machine.built_nodes().size(); }
  std::vector<uint64_t> window_sums() const override { return machine.network->window_sums(); }
  bool stop_on(const std::vector<uint64_t>& sums) override {
    return machine.network->standstill(sums);
  }
  std::vector<uint64_t> core_places() const override;
  bool shows_each_window() const override { return static_cast<bool>(show_window_workload); }
  Bytes take_window_records() override { return take_window_workload(); }
  void show_window_records(const std::vector<Bytes>& by_partition) override {
    show_window_workload(by_partition);
  }
  bool replays_each_window() const override { return static_cast<bool>(replay_window_workload); }
  Bytes take_window_log() override { return take_window_log_workload(); }
  void replay_window_logs(const std::vector<Bytes>& by_partition) override {
    replay_window_workload(by_partition);
  }
  std::function<Bytes()> save_workload;
  std::function<void(const Bytes&)> merge_workload;
  // A workload that shows records as the run goes on sets both (PartitionedModel's).
  std::function<Bytes()> take_window_workload;
  std::function<void(const std::vector<Bytes>&)> show_window_workload;
  // A workload whose checker replays the partitions' logs (partition_log.h) sets both, by
  // replay_each_window.
  std::function<Bytes()> take_window_log_workload;
  std::function<void(const std::vector<Bytes>&)> replay_window_workload;
  template <class Log, class Checker>
  void replay_each_window(std::shared_ptr<Log> log, std::shared_ptr<Checker> checker) {
    take_window_log_workload = [log] { return log->take(); };
    replay_window_workload = [log, checker](const std::vector<Bytes>& by_partition) {
      log->replay(by_partition, *checker);
    };
  }

  std::function<nlohmann::json()> results;             // set by the workload
  std::function<std::string(const Core*)> core_notes;  // set by a workload that has them
  std::vector<std::shared_ptr<void>> keep;             // workload state that must outlive the run
};

// The node `hops` links from node 0: along +x as far as is minimal, then +y, then +z (-1:
// farther than the machine's diameter).
int node_at_distance(const torus::TorusShape& s, int hops);

// Refuses before the run (InputError naming the parameter) DMA engines with fewer injection
// or reception FIFOs than `who` programs, and, when it receives by memory FIFO, packets whose
// payload would not fit a reception FIFO slot.
void require_dma_fifos(TorusModel& m, int injection, int reception, const std::string& who);

// The first node this process builds: every node is built alike (torus.node.*), so it stands
// for them all where a workload reads the nodes' configuration before the run.
torus::ComputeNode& first_local_node(TorusModel& m);

}  // namespace hs::runner
