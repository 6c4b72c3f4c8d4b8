// The threads on which links hand what they carry to its receiver. A receiver's target may
// wait (a bus that arbitrates, a FIFO that is full), which only a thread may do; one thread
// per receiver would cost a stack for each of the torus's tens of thousands of reception
// units, so receivers borrow a worker from one shared pool while they have work, and give it
// back when they have none. The pool grows when every worker is busy (a target waiting holds
// its worker), so a waiting target never delays another receiver.
#pragma once
#include <cstddef>
#include <memory>
#include <systemc>
#include <vector>

namespace hs {

// Work that runs on a borrowed worker until it has nothing left to do.
class DeliveryJob {
 public:
  virtual ~DeliveryJob() = default;
  // Runs on a worker thread; may wait. Returns when the job has no more work.
  virtual void serve() = 0;
};

class DeliveryWorkers {
 public:
  static DeliveryWorkers& instance();

  // Starts `job` on a free worker in the current evaluation phase (spawning one if none is
  // free). The caller guarantees the job is not already being served.
  void start(DeliveryJob& job);

  size_t workers() const { return workers_.size(); }

 private:
  struct Worker {
    sc_core::sc_event go;
    DeliveryJob* job = nullptr;
  };
  void run(Worker& w);

  std::vector<std::unique_ptr<Worker>> workers_;  // every worker, for the process's life
  std::vector<Worker*> idle_;
};

}  // namespace hs
