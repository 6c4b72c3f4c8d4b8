// Transaction timelines in the Chrome/Perfetto JSON trace format (open in ui.perfetto.dev or
// chrome://tracing). When no trace file is open every call is a cheap no-op.
//
// Processes and threads. A track is named by a component's hierarchical name, and
// "process.thread": its process is the longest prefix of the name declared with process()
// (a hybrid node's host, a Cell accelerator, a torus node), failing that the name's first
// component; the rest of the name names the thread (or the counter). A track's metadata
// (process_name, thread_name, sort indices) is written with its first event, so a track
// declared but never used leaves nothing in the file: every named thread has events.
//
// Event kinds and the rules the file keeps (a test checks them on every built-in scenario):
// - span: a complete event ("X") on a track whose spans never overlap unless nested (a wire,
//   a core's phases);
// - async spans ("b"/"e") for what may overlap on one track (pipelined commands, messages in
//   flight): each gets an id of its own (the track and a per-track sequence number), so a
//   begin pairs with exactly one end; their category is the track's thread name;
// - counters ("C"): one numeric series per counter track (occupancy, counter values);
// - instants ("i") with args (firmware log lines).
// Args are written with the JSON library, so any text in them is escaped.
//
// A partitioned run (docs/parallel.md) writes the sequential run's file. Every partition
// records its own components' calls instead of writing them (record_partition), each with
// its place in the run's order; at the end partition 0 replays every partition's records
// (replay), merged in that order, through the path that writes the file: tracks and processes
// are numbered machine-wide, in the order the sequential run made them, and each partition's
// calls keep their own order (so do one core's, and one activation's). What every partition
// elaborates alike (a process, the n-th track of a name made before the run starts) is made
// once. The records are held in memory until the end.
// A call's place: its time; then the delta cycle of that instant it runs in (the kernel's
// count: a delta's activity stems only from its own partition's earlier deltas of the instant,
// nothing crossing partitions within an instant, so the count is the sequential run's); then
// within the delta the sequential kernel's order (rules in tlm/timing/timeline.h and
// hw/cpu/core_activation.h):
// 1. elaboration (before time 0's first delta), by the processes declared so far;
// 2. the timeline's entries due now, by their order (the dispatcher runs them first);
// 3. the actions of its "now" queues, by their paths (the dispatcher runs them next);
// 4. the activations of processes that know their place (ActivationPlace: a core's firmware,
//    with what it calls synchronously: a device's b_transport, the MPI library, the firmware
//    log; a TimedQueue's arrivals, a torus DMA's injection engine), by that place, which
//    follows from what woke the activation (WakeKey, tlm/timing/timeline.h): in the dispatch's
//    delta cycle, threads then methods an alarm's ringing woke, in ringing order (the
//    dispatcher rang it: they run after it); in a later delta cycle, methods then threads a
//    delta notification woke (an interrupt, a register write that gives a DMA engine work,
//    a step's end), in the reverse order of their notifiers' places (the kernel triggers a
//    delta cycle's notifications last first), those notified from an unknown place first;
// 5. anything else, whose place among other partitions' calls of the same delta is not known
//    (partition order): a process that knows no place (none of the models' processes that
//    trace today), or an activation woken from an unknown place (an interrupt raised by such a
//    process). A trace without such calls (any built-in workload's, a user program's) is
//    exactly the sequential run's; with them, same-time calls of different partitions in one
//    delta can be listed in another order.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <systemc>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tlm/common/output_file.h"
#include "tlm/parallel/bytes.h"

namespace hs {

// What a trace keeps: a window of simulated time, the tracks whose names match a pattern, and
// a size bound past which tracing stops (with a warning) while the run goes on.
struct TraceLimits {
  double start_ns = 0;
  double end_ns = 0;       // 0: to the end of the run
  std::string only;        // glob over track names ("*.core0", "node0.pcie*"); empty: all
  uint64_t max_bytes = 0;  // 0: no bound
};

class TransactionTrace {
 public:
  static TransactionTrace& instance();
  ~TransactionTrace();

  // Turns tracing on; throws InputError if `path` cannot be written. No file is created yet:
  // what elaboration traces is held until start(), so bad input found meanwhile leaves no file.
  void open(const std::string& path, const TraceLimits& limits = {});
  // Creates the file (beside `path`, renamed into place by close()) and writes what is held.
  void start();
  // Ends async spans still open (at the current time, marked unfinished), ends the JSON and
  // moves the file into place; throws InputError naming it if a write failed.
  void close();
  // Drops the trace: nothing is written, an existing file at the path is left as it was.
  void abandon();
  bool enabled() const { return enabled_; }

  // A partitioned run (see above), right after open() and before the model is built: this
  // partition records; `writer` (partition 0) also keeps the file, which the others never
  // create. Asks the timeline for the places it records (now paths, activations).
  void record_partition(bool writer);
  // This partition's records, handed over.
  std::vector<uint8_t> take_records();
  // At partition 0: every partition's records (its own among them), in partition order,
  // merged and written.
  void replay(const std::vector<std::vector<uint8_t>>& partitions);

  // Declares a process: tracks named "prefix.*" belong to it. `label` is its displayed name
  // (the prefix if empty). Processes sort in the order they are declared.
  void process(const std::string& prefix, const std::string& label = "");
  // A thread track. Returns -1 when tracing is off or the track's name does not match the
  // --trace-only pattern; every event call takes -1 and does nothing.
  int track(const std::string& name);
  // A counter track ("process.series"); `unit` labels its values. -1 as for track().
  int counter(const std::string& name, const char* unit);

  void span(int track, const char* name, const sc_core::sc_time& start, const sc_core::sc_time& end,
            const nlohmann::json* args = nullptr);
  // A span that may overlap others on the same track, both ends known.
  void async_span(int track, const char* name, const sc_core::sc_time& start,
                  const sc_core::sc_time& end, const nlohmann::json* args = nullptr);
  // An async span whose end comes later: `key` names it among the track's open spans (a
  // message number); async_end with the same key ends it and merges `args` into the begin's.
  // A key already open is ended first.
  void async_begin(int track, const char* name, uint64_t key, const sc_core::sc_time& at,
                   nlohmann::json args = nlohmann::json::object());
  void async_end(int track, uint64_t key, const sc_core::sc_time& at,
                 const nlohmann::json* args = nullptr);
  void instant(int track, const char* name, const sc_core::sc_time& at,
               const nlohmann::json* args = nullptr);
  void count(int counter, const sc_core::sc_time& at, double value);

 private:
  struct Track {
    std::string name;
    const char* unit = nullptr;  // counters only
    int pid = 0;                 // 0: no event yet (metadata unwritten)
    std::string local;           // the name within its process
    uint64_t next_async = 0;
  };
  struct Open {
    std::string name;
    sc_core::sc_time start;
    nlohmann::json args;
  };
  // Tracing is on and `track` names one of this trace's tracks (an id past them, from an
  // earlier trace, is ignored).
  bool live(int track) const {
    return enabled_ && track > 0 && static_cast<size_t>(track) <= tracks_.size();
  }
  int add_track(const std::string& name, const char* unit);
  // The track's process and local name, with the metadata written on first use.
  Track& used(int track);
  int process_of(const std::string& name, std::string& local);
  int new_process(const std::string& prefix, const std::string& label);
  void event(const nlohmann::json& e);
  void event(std::string text);
  // Whether an event over [start, end] falls in the trace's window.
  bool in_window(const sc_core::sc_time& start, const sc_core::sc_time& end) const;
  enum class Op : uint8_t { Process, Track, Span, AsyncSpan, AsyncBegin, AsyncEnd, Instant, Count };
  struct Record;
  // Records a call (recording_), with its place in the run's order.
  void keep(Op op, int track, const std::string& name, const sc_core::sc_time& t0,
            const sc_core::sc_time& t1, uint64_t key, double value, bool flag,
            const std::string& text);
  void apply(const Record& r, const std::vector<int>& ids);
  bool enabled_ = false, full_ = false, first_ = true;
  bool recording_ = false, writer_ = true;
  ByteWriter records_;
  std::set<std::string> units_;  // replayed counters' units (track units point into it)
  TraceLimits limits_;
  uint64_t bytes_ = 0;
  std::string path_, held_;
  std::unique_ptr<OutputFile> file_;
  std::vector<Track> tracks_;  // index: track id - 1
  std::unordered_map<std::string, int> pids_;
  std::vector<std::string> process_labels_;  // index: pid - 1
  std::vector<bool> process_named_;          // metadata written
  std::map<std::pair<int, uint64_t>, Open> open_;
};

}  // namespace hs
