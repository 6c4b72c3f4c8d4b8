// The traces and waveforms of a partitioned run (docs/parallel.md): one file each, the
// sequential run's. Every partition traces its own components; partition 0 merges them in a
// fixed order at the end and alone writes the files (tlm/trace/transaction_trace.h,
// tlm/trace/signal_trace.h).
//
// Rules:
// - open_partition_traces follows the traces' open() (partition 0) or stands in for it (the
//   others), before the model is built, so that everything the model traces is a partition's.
// - gather_partition_traces is collective: every partition calls it after the run, with the
//   same options; a partition that cannot hand its trace over ends the run (never a hang).
#pragma once
#include <string>

#include "tlm/parallel/process_group.h"

namespace hs::runner {

void open_partition_traces(int rank, bool trace, bool vcd);
void gather_partition_traces(ProcessGroup& group, bool trace, bool vcd);

}  // namespace hs::runner
