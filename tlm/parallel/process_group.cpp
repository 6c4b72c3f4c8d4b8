#include "tlm/parallel/process_group.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tlm/common/errors.h"
#include "tlm/parallel/launcher.h"

namespace hs {

namespace {

// A run of one process: every collective is the identity.
class Alone : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<Bytes> exchange(const std::vector<int>& peers, const std::vector<Bytes>&) override {
    return std::vector<Bytes>(peers.size());
  }
  void vote(Vote&) override {}
  std::vector<Bytes> gather(const Bytes& mine) override { return {mine}; }
  Bytes broadcast(const Bytes& from_root) override { return from_root; }
  [[noreturn]] void abort(const std::string& why) override {
    std::fprintf(stderr, "hybridsim: %s\n", why.c_str());
    std::exit(1);
  }
};

}  // namespace

RunProcesses& run_processes() {
  static RunProcesses processes;
  return processes;
}

#ifndef HYBRIDSIM_HAVE_MPI
bool ProcessGroup::available() {
  return false;
}

std::unique_ptr<ProcessGroup> join_process_group() {
  if (launched().processes > 1) {
    throw InputError(
        "this hybridsim was built without MPI, so it cannot run as one simulation over "
        "several processes: install Open MPI (bash scripts/setup.sh) and build again, or run it "
        "as one process");
  }
  return std::make_unique<Alone>();
}
#else
std::unique_ptr<ProcessGroup> make_mpi_group();  // mpi_group.cpp

bool ProcessGroup::available() {
  return true;
}

std::unique_ptr<ProcessGroup> join_process_group() {
  if (launched().processes > 1) return make_mpi_group();
  return std::make_unique<Alone>();
}
#endif

}  // namespace hs
