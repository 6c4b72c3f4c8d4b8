// Joins VCD files from different writers (SystemC's sc_trace file, each Verilated block's own
// VCD) into one waveform: one scope tree in which every dotted name becomes nested scopes (the
// Verilated models name their top scope "torus.x0y0z0.dma.inj_counters", flat), identifier
// codes made unique, value changes interleaved in time order, times in picoseconds.
// Streaming: memory grows with the number of signals, not with the length of the run.
#pragma once
#include <string>
#include <vector>

namespace hs {

struct VcdSource {
  std::string path;
  // A scope wrapping everything in the file that is left out ("SystemC" for the kernel's).
  std::string drop_top_scope;
};

struct VcdSignal {
  std::string scope;  // dotted, as in the merged file ("torus.x0y0z0.core0")
  std::string name;   // full dotted name as GTKWave lists it ("torus.x0y0z0.core0.state[31:0]")
  std::string type;   // the VCD variable type: wire, reg, real, ...
  int width = 1;
  size_t source = 0;     // index into the sources
  int depth = 0;         // scopes around it in its own file
  bool changes = false;  // its value changed after the first one it was given
};

// Writes the merge to `out_path` (created or truncated). Throws std::runtime_error saying
// what went wrong (an input that cannot be read or is not VCD, a write error): the caller
// names the option and the file.
std::vector<VcdSignal> merge_vcd(const std::vector<VcdSource>& sources,
                                 const std::string& out_path);

}  // namespace hs
