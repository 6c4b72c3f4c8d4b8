#include "testbench/fuzz/fuzz_case.h"
#include "tlm/common/glob.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace hs::fuzz {

namespace {

// Simulated nanoseconds every case may run: long enough to pass elaboration and start the
// workload, short enough that a thousand cases take seconds.
constexpr const char* kTimeLimit = "sim.time_limit=20000";

size_t pick(Rng& rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

std::string write_case_file(const std::string& dir, const std::string& name,
                            const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

// The dotted names (parameters) a file mentions: a refusal of one of its parameters may name
// the parameter rather than the file.
std::vector<std::string> dotted_names(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0;
  while ((i = text.find('"', i)) != std::string::npos) {
    const size_t end = text.find('"', i + 1);
    if (end == std::string::npos) break;
    const std::string s = text.substr(i + 1, end - i - 1);
    const bool name_chars = std::all_of(s.begin(), s.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '*';
    });
    if (name_chars && s.find('.') != std::string::npos) out.push_back(s);
    i = end + 1;
  }
  return out;
}

// argv cannot carry a NUL.
std::string argv_safe(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\0'), s.end());
  return s;
}

void make_set_case(const Corpus& corpus, FuzzCase& c, Rng& rng) {
  auto it = corpus.params.begin();
  std::advance(it, static_cast<long>(pick(rng, corpus.params.size())));
  const auto& [scenario, params] = *it;
  c.args = {"run", scenario, "--quiet"};
  const size_t n = 1 + pick(rng, 3);
  for (size_t k = 0; k < n && !params.empty(); ++k) {
    const auto& [name, value] = params[pick(rng, params.size())];
    const std::string mutated_name = pick(rng, 3) == 0 ? mutate_name(name, rng) : name;
    const std::string assignment = argv_safe(mutated_name + "=" + mutate_set_value(value, rng));
    c.args.push_back("--set");
    c.args.push_back(assignment);
    c.culprits.push_back(assignment);
    if (!mutated_name.empty()) c.culprits.push_back(mutated_name);
  }
  if (pick(rng, 8) == 0) {
    c.args.push_back("--seed");
    c.args.push_back(argv_safe(mutate_set_value("1", rng)));
    c.culprits.push_back("--seed");
  }
  c.culprits.push_back("--set");
  c.args.push_back("--set");
  c.args.push_back(kTimeLimit);
}

}  // namespace

const std::vector<std::string>& case_kinds() {
  static const std::vector<std::string> kinds = {"scenario", "set", "sweep", "permutation",
                                                 "program"};
  return kinds;
}

FuzzCase make_case(const Corpus& corpus, const std::string& kind, uint64_t seed, uint64_t id,
                   const std::string& work_dir) {
  Rng rng(seed * 0x9e3779b97f4a7c15ull ^ (id + 1) * 0xbf58476d1ce4e5b9ull);
  FuzzCase c;
  c.id = id;
  c.kind = kind;
  if (kind == "scenario") {
    c.file_text =
        mutate_json_text(corpus.scenario_texts[pick(rng, corpus.scenario_texts.size())], rng);
    c.file_path = write_case_file(work_dir, "scenario.json", c.file_text);
    c.args = {"run", c.file_path, "--quiet", "--set", kTimeLimit};
    c.culprits = dotted_names(c.file_text);
    c.culprits.push_back(c.file_path);
  } else if (kind == "sweep") {
    c.file_text = mutate_json_text(corpus.sweep_texts[pick(rng, corpus.sweep_texts.size())], rng);
    c.file_path = write_case_file(work_dir, "sweep.json", c.file_text);
    c.args = {"sweep", c.file_path, "--dry-run", "--quiet", "--out", work_dir + "/sweep-out"};
    c.culprits = dotted_names(c.file_text);
    c.culprits.push_back(c.file_path);
  } else if (kind == "permutation") {
    c.file_text =
        mutate_lines(corpus.permutation_texts[pick(rng, corpus.permutation_texts.size())], rng);
    c.file_path = write_case_file(work_dir, "permutation.txt", c.file_text);
    c.args = {"run",
              "torus_traffic",
              "--quiet",
              "--set",
              "workload.pattern=permutation",
              "--set",
              "workload.permutation=" + c.file_path,
              "--set",
              kTimeLimit};
    c.culprits = {c.file_path};
  } else if (kind == "program") {
    c.file_text = mutate_program(corpus.program_texts[pick(rng, corpus.program_texts.size())], rng);
    c.file_path = write_case_file(work_dir, "program.txt", c.file_text);
    c.args = {"run",   "program_ring", "--quiet", "--set", "workload.program=" + c.file_path,
              "--set", kTimeLimit};
    c.culprits = {c.file_path};
  } else {
    make_set_case(corpus, c, rng);
  }
  return c;
}

Verdict judge(const FuzzCase& c, int exit_code, int signal, bool timed_out,
              const std::string& output) {
  if (timed_out) return {false, "hang: still running at the timeout"};
  if (signal != 0) return {false, fmt::format("crash: killed by signal {}", signal)};
  if (exit_code < 0 || exit_code > 2) return {false, fmt::format("exit code {}", exit_code)};
  for (const char* bad : {"internal error", "SystemC error", "AddressSanitizer", "runtime error"}) {
    if (output.find(bad) != std::string::npos) return {false, fmt::format("printed '{}'", bad)};
  }
  if (exit_code != 2) return {};
  // A refusal: its first error line must name what is at fault.
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line) && line.rfind("hybridsim: error: ", 0) != 0) {
  }
  if (line.empty()) return {false, "exit code 2 without a 'hybridsim: error:' line"};
  // CLI11's own refusals (a malformed command line) name the option in their own words.
  if (line.find("--") != std::string::npos) return {};
  for (const auto& culprit : c.culprits) {
    if (!culprit.empty() && line.find(culprit) != std::string::npos) return {};
  }
  // A wildcard assignment is refused under the parameter it matched.
  const std::string quoted = "parameter '";
  if (const size_t at = line.find(quoted); at != std::string::npos) {
    const size_t end = line.find('\'', at + quoted.size());
    const std::string param = line.substr(at + quoted.size(), end - at - quoted.size());
    for (const auto& culprit : c.culprits) {
      if (culprit.find('*') != std::string::npos && glob_match(culprit, param)) return {};
    }
  }
  return {false, "refusal names neither the file nor the argument at fault: " + line};
}

std::vector<std::pair<std::string, std::string>> parse_params_listing(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string name, value;
    if (!(words >> name >> value)) continue;
    if (name.find('.') == std::string::npos || name.back() == ':') continue;
    out.emplace_back(name, value);
  }
  return out;
}

}  // namespace hs::fuzz
