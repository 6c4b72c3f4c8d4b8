#include "tlm/link/delivery_workers.h"

// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "tlm/kernel/worker_stack.h"

namespace hs {

DeliveryWorkers& DeliveryWorkers::instance() {
  static DeliveryWorkers pool;
  return pool;
}

void DeliveryWorkers::start(DeliveryJob& job) {
  if (!idle_.empty()) {
    Worker* w = idle_.back();
    idle_.pop_back();
    w->job = &job;
    w->go.notify();  // immediate: the worker runs in this evaluation phase
    return;
  }
  Worker* w = workers_.emplace_back(std::make_unique<Worker>()).get();
  w->job = &job;
  sc_core::sc_spawn_options opts;
  opts.set_stack_size(kWorkerStack);
  sc_core::sc_spawn([this, w] { run(*w); }, sc_core::sc_gen_unique_name("delivery_worker"), &opts);
}

void DeliveryWorkers::run(Worker& w) {
  for (;;) {
    w.job->serve();
    w.job = nullptr;
    idle_.push_back(&w);
    sc_core::wait(w.go);
  }
}

}  // namespace hs
