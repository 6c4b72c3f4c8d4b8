// Throughput of concurrent DMA streams over their common steady state.
//
// Each stream reports the bytes it delivers and the commands it completes, with their times;
// they are summed into bins of `bin` simulated time. The window opens at the first bin edge
// by which every stream has delivered `lead` of its bytes and closes at the last bin edge
// before any stream has delivered all but `lead` of them: inside it every stream is under
// way, past its start-up (queue filling, pipelines filling, SPUs starting at different
// instants) and short of its drain. Bytes and commands are counted exactly inside the window;
// only its edges are rounded to bins.
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

namespace hs::runner {

struct SteadyWindow {
  bool found = false;  // false: the streams never all ran at once past their lead-in
  sc_core::sc_time start, end;
  std::vector<double> bytes_per_second;  // per stream
  double mean_command_latency_ns = 0;    // commands completed inside the window
  uint64_t commands = 0;
};

class StreamMeter {
 public:
  StreamMeter(int streams, uint64_t bytes_per_stream, double lead, const sc_core::sc_time& bin);

  void delivered(int stream, uint64_t bytes, const sc_core::sc_time& at);
  void command_done(int stream, const sc_core::sc_time& issued, const sc_core::sc_time& done);
  SteadyWindow window() const;

 private:
  struct Bin {
    uint64_t bytes = 0;
    uint64_t commands = 0;
    double latency_ns = 0;
  };
  Bin& bin_at(int stream, const sc_core::sc_time& t);

  uint64_t bytes_per_stream_;
  double lead_;
  sc_core::sc_time bin_;
  std::vector<std::vector<Bin>> bins_;  // by stream, by bin
};

}  // namespace hs::runner
