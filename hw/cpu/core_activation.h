// Where the activation a core runs now stands among the activations of one instant, for what
// a partitioned run merges in the sequential run's order: a user program's output lines and
// how its ranks ended (testbench/runner/workloads/mpi_program.cpp), and the trace calls a
// core's firmware makes from its own process (tlm/trace/transaction_trace.h: the core is its
// process's ActivationPlace, tlm/timing/timeline.h).
//
// Rules (the kernel's order within an instant: tlm/timing/timeline.h's WakeKey, which gives
// the keys):
// - Cores whose timed wait ended run in the instant's first delta cycle, in the order their
//   alarms ring: the timeline's order of (time, the core's origin, its count of posts), the
//   ringing being the core's last post.
// - Cores an interrupt woke run in the next delta cycle after its delivery, in the reverse
//   order of the deliveries (the kernel triggers one delta cycle's notifications last first),
//   a delivery's place being its deliverer's: a timeline entry, a "now" queue's action, or a
//   process that knows its place (a DMA engine's completions, another core). An interrupt
//   delivered from anywhere else is delivered after those, so the cores it woke run first; its
//   place among other partitions' deliveries is not known (partition order).
// append_activation_place gives this order as a key (with the instant's delta cycle before
// it, the order of every activation of an instant): the transaction trace and a user
// program's output lines both merge by it.
// Deliveries are noted only once activations are kept (keep_core_activations, or a
// partitioned trace: Timeline::keep_activations), and only then does a core register its
// firmware's process; nothing else pays for it.
#pragma once
#include <cstdint>
#include <vector>

#include "tlm/timing/timeline.h"

namespace hs {

class Core;

void keep_core_activations();
// Appends the key of the core's activation now (ActivationPlace::append_place): keys of one
// delta cycle compare as the kernel runs the activations; equal keys are not known apart.
void append_activation_place(const Core& core, std::vector<uint64_t>& key);

}  // namespace hs
