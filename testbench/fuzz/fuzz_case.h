// One fuzz case: a mutated input given to the hybridsim executable exactly as a user would
// give it, and the verdict on what hybridsim did with it.
//
// Kinds: "scenario" (a mutated scenario file, `hybridsim run FILE`), "set" (mutated `--set`
// names and values and `--seed` on a built-in scenario), "sweep" (a mutated sweep file,
// `hybridsim sweep FILE --dry-run`, which checks it against the model), "permutation" (a
// mutated traffic permutation file given to torus_traffic), "program" (a mutated
// message-passing program given to the program workload). Every run gets a
// short sim.time_limit so a valid but huge workload ends quickly.
//
// Verdicts: a run must end by itself (a hang is one that outlives the fuzzer's timeout),
// never by a signal, with exit code 0, 1 or 2 and no "internal error"; an exit 2 (refused
// input) must name what is at fault: the file, a --set or --seed argument, or a parameter
// the case assigned.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "testbench/fuzz/mutator.h"

namespace hs::fuzz {

struct Corpus {
  std::vector<std::string> scenario_texts;     // scenario files to mutate
  std::vector<std::string> sweep_texts;        // sweep files to mutate
  std::vector<std::string> permutation_texts;  // permutation files (for the 8x8x8 torus)
  std::vector<std::string> program_texts;      // message-passing programs (docs/programs.md)
  // Built-in scenario -> its parameters as (name, value text) from `hybridsim params`.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> params;
};

struct FuzzCase {
  uint64_t id = 0;
  std::string kind;
  std::string file_path, file_text;   // the mutated file, when the kind has one
  std::vector<std::string> args;      // hybridsim's arguments (without the program)
  std::vector<std::string> culprits;  // strings an exit-2 message may name
};

// Kinds in the order --kinds lists them.
const std::vector<std::string>& case_kinds();

// Case `id` of the campaign seeded `seed`, reproducible from (seed, id) alone. `work_dir`
// holds the case's file and any output.
FuzzCase make_case(const Corpus& corpus, const std::string& kind, uint64_t seed, uint64_t id,
                   const std::string& work_dir);

struct Verdict {
  bool ok = true;
  std::string problem;  // why not: crash, hang, exit code, internal error, unnamed refusal
};

// Judges a finished case: `signal` (0 if it exited), its exit code, what it printed.
Verdict judge(const FuzzCase& c, int exit_code, int signal, bool timed_out,
              const std::string& output);

// Parses `hybridsim params` output into (name, value) pairs.
std::vector<std::pair<std::string, std::string>> parse_params_listing(const std::string& text);

}  // namespace hs::fuzz
