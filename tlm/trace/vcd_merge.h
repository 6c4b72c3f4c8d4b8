// Joins VCD files from different writers (SystemC's sc_trace file, each Verilated block's own
// VCD) into one waveform: one scope tree in which every dotted name becomes nested scopes (the
// Verilated models name their top scope "torus.x0y0z0.dma.inj_counters", flat), identifier
// codes made unique, value changes interleaved in time order, times in picoseconds.
// Streaming: memory grows with the number of signals, not with the length of the run.
//
// A partitioned run (docs/parallel.md) gives one kernel file per partition, each marked
// `partition` and placed first, in partition order. They are views of one model: a signal
// (by its full name) declared in several of them is one signal of the merge, declared where
// the first of them declares it, and its values are taken from the one partition in which
// they change after their first value (the partition that simulates its component), else from
// that first file. Two partitions changing one signal is an error.
//
// The merged header lists a scope's own signals, then its scopes by name (as SystemC's writer
// does), and codes the signals in that order; within a time step, changes come in that order
// too, whichever file they came from. Neither depends on which file declared a signal first
// or on a kernel's order of registration, which differ with the components a process built:
// a partitioned run's waveform is byte for byte the sequential run's.
#pragma once
#include <string>
#include <vector>

namespace hs {

struct VcdSource {
  std::string path;
  // A scope wrapping everything in the file that is left out ("SystemC" for the kernel's).
  std::string drop_top_scope;
  bool partition = false;  // one partition's kernel file (see above)
};

struct VcdSignal {
  std::string scope;  // dotted, as in the merged file ("torus.x0y0z0.core0")
  std::string name;   // full dotted name as GTKWave lists it ("torus.x0y0z0.core0.state[31:0]")
  std::string type;   // the VCD variable type: wire, reg, real, ...
  int width = 1;
  size_t source = 0;     // index into the sources (0 for every partition's kernel file)
  int depth = 0;         // scopes around it in its own file
  bool changes = false;  // its value changed after the first one it was given
};

// Writes the merge to `out_path` (created or truncated). Throws std::runtime_error saying
// what went wrong (an input that cannot be read or is not VCD, a write error): the caller
// names the option and the file.
std::vector<VcdSignal> merge_vcd(const std::vector<VcdSource>& sources,
                                 const std::string& out_path);

}  // namespace hs
