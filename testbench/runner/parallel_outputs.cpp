#include "testbench/runner/parallel_outputs.h"

#include <exception>

#include "tlm/trace/signal_trace.h"
#include "tlm/trace/transaction_trace.h"

namespace hs::runner {

void open_partition_traces(int rank, bool trace, bool vcd) {
  if (trace) TransactionTrace::instance().record_partition(rank == 0);
  if (vcd && rank != 0) SignalTrace::instance().open_partition();
}

void gather_partition_traces(ProcessGroup& group, bool trace, bool vcd) {
  Bytes records, wave;
  try {
    if (trace) records = TransactionTrace::instance().take_records();
    if (vcd && group.rank() != 0) wave = SignalTrace::instance().take_partition();
  } catch (const std::exception& e) {  // partition 0 waits for this one: end them all
    group.abort(std::string("handing the trace over: ") + e.what());
  }
  if (trace) {
    const std::vector<Bytes> all = group.gather(records);
    if (group.rank() == 0) TransactionTrace::instance().replay(all);
  }
  if (vcd) {
    std::vector<Bytes> all = group.gather(wave);
    if (group.rank() == 0) {
      all.erase(all.begin());  // its own is still open
      SignalTrace::instance().add_partitions(all);
    }
  }
}

}  // namespace hs::runner
