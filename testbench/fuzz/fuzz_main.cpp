// hybridsim-fuzz: a mutation fuzzer over every input format hybridsim reads (scenario files,
// `--set` and `--seed` values, sweep files). Each case runs the real hybridsim executable in
// a process of its own and is judged by fuzz_case.h's rules; a failing case is kept under
// OUT/failures/ID/ with its input and a replay command.
//
//   hybridsim-fuzz [--cases N] [--seed S] [--jobs J] [--timeout SECONDS] [--out DIR]
//                  [--kinds scenario,set,sweep] [--bin HYBRIDSIM]
//
// Cases are reproducible from (seed, case number) alone. Ends with the line
// "fuzz: N passed, M failed" and exits 1 if any case failed.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <systemc>  // declares sc_main (extern "C"), which this file defines

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "testbench/fuzz/fuzz_case.h"
#include "testbench/sweep/external_command.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using hs::fuzz::FuzzCase;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> files_in(const std::vector<std::string>& dirs, const std::string& ext) {
  std::vector<std::string> texts;
  for (const auto& d : dirs) {
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(d)) {
      if (e.path().extension() == ext) paths.push_back(e.path());
    }
    std::sort(paths.begin(), paths.end());  // the corpus order must not depend on the disk
    for (const auto& p : paths) texts.push_back(read_file(p));
  }
  return texts;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

struct Slot {
  fs::path dir;
  pid_t pid = 0;
  FuzzCase c;
  Clock::time_point started;
  bool killed = false;
};

struct Tally {
  uint64_t passed = 0, failed = 0;
  std::map<std::string, uint64_t> by_kind, by_exit;
};

void keep_failure(const fs::path& out, const Slot& s, const std::string& bin,
                  const std::string& problem, const std::string& output) {
  const fs::path dir = out / "failures" / std::to_string(s.c.id);
  fs::create_directories(dir);
  std::string cmd = shell_quote(bin);
  for (auto a : s.c.args) {
    if (!s.c.file_path.empty() && a == s.c.file_path) a = (dir / "input.json").string();
    cmd += " " + shell_quote(a);
  }
  if (!s.c.file_path.empty()) std::ofstream(dir / "input.json", std::ios::binary) << s.c.file_text;
  std::ofstream(dir / "replay.sh") << "#!/bin/sh\n# " << problem << "\n" << cmd << "\n";
  std::ofstream(dir / "output.txt") << output;
  std::cerr << "fuzz: case " << s.c.id << " (" << s.c.kind << "): " << problem << "\n  replay: sh "
            << (dir / "replay.sh").string() << "\n";
}

}  // namespace

// Entered like every hybridsim executable (the kernel set-up's main calls sc_main): it links
// the runner, and with it the SystemC library, which needs sc_main.
int sc_main(int argc, char** argv) {
  CLI::App app{"hybridsim-fuzz: mutation fuzzing of scenario files, --set values and sweep files"};
  uint64_t cases = 1000, seed = 1;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  double timeout = 60;
  std::string out = "fuzz-out", bin, kinds_arg = "scenario,set,sweep,permutation,program";
  std::vector<std::string> scenario_dirs = {HYBRIDSIM_SCENARIO_DIR};
  std::vector<std::string> sweep_dirs = {HYBRIDSIM_STUDY_DIR, HYBRIDSIM_SOAK_DIR};
  app.add_option("--cases", cases, "cases to run")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  app.add_option("--seed", seed, "campaign seed (case i is a function of seed and i)");
  app.add_option("--jobs", jobs, "cases run at once")->check(CLI::Range(1, 256));
  app.add_option("--timeout", timeout, "seconds after which a case counts as a hang")
      ->check(CLI::Range(1.0, 3600.0));
  app.add_option("--out", out, "where failing cases are kept (with replay commands)");
  app.add_option("--kinds", kinds_arg,
                 "comma-separated: scenario, set, sweep, permutation, program");
  app.add_option("--bin", bin, "the hybridsim executable (default: beside this one)");
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> kinds;
  for (size_t i = 0; i <= kinds_arg.size();) {
    const size_t comma = std::min(kinds_arg.find(',', i), kinds_arg.size());
    const std::string k = kinds_arg.substr(i, comma - i);
    const auto& known = hs::fuzz::case_kinds();
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      std::cerr << "hybridsim-fuzz: error: --kinds: unknown kind '" << k
                << "' (kinds: scenario, set, sweep, permutation, program)\n";
      return 2;
    }
    kinds.push_back(k);
    i = comma + 1;
  }
  if (bin.empty())
    bin = (fs::canonical("/proc/self/exe").parent_path().parent_path() / "hybridsim").string();
  if (access(bin.c_str(), X_OK) != 0) {
    std::cerr << "hybridsim-fuzz: error: --bin: " << bin << " is not an executable\n";
    return 2;
  }

  hs::fuzz::Corpus corpus;
  corpus.scenario_texts = files_in(scenario_dirs, ".json");
  corpus.sweep_texts = files_in(sweep_dirs, ".json");
  corpus.permutation_texts = files_in({HYBRIDSIM_PERMUTATION_DIR}, ".txt");
  corpus.program_texts = files_in({HYBRIDSIM_PROGRAM_DIR}, ".txt");
  for (const auto& e : fs::directory_iterator(HYBRIDSIM_SCENARIO_DIR)) {
    if (e.path().extension() != ".json") continue;
    const auto r = hs::sweep::run_command({bin, "params", e.path().stem().string()});
    if (r.exit_code != 0) {
      std::cerr << "hybridsim-fuzz: error: `hybridsim params " << e.path().stem().string()
                << "` failed:\n"
                << r.err;
      return 2;
    }
    corpus.params[e.path().stem().string()] = hs::fuzz::parse_params_listing(r.out);
  }

  const fs::path out_dir(out);
  fs::remove_all(out_dir / "work");
  std::vector<Slot> slots(static_cast<size_t>(jobs));
  for (size_t k = 0; k < slots.size(); ++k) {
    slots[k].dir = out_dir / "work" / std::to_string(k);
    fs::create_directories(slots[k].dir);
  }
  // A runaway allocation ends in bad_alloc, judged like any other crash, instead of taking
  // the machine's memory.
  // (Not under AddressSanitizer, whose shadow memory alone reserves terabytes of addresses.)
#if !defined(__SANITIZE_ADDRESS__)
  const rlimit as_limit{rlim_t{8} << 30, rlim_t{8} << 30};
  setrlimit(RLIMIT_AS, &as_limit);
#endif

  Tally tally;
  uint64_t next = 0, running = 0;
  const auto t0 = Clock::now();
  while (next < cases || running > 0) {
    for (auto& s : slots) {
      if (s.pid != 0 || next >= cases) continue;
      s.c = hs::fuzz::make_case(corpus, kinds[next % kinds.size()], seed, next, s.dir.string());
      std::vector<std::string> args = {bin};
      args.insert(args.end(), s.c.args.begin(), s.c.args.end());
      hs::sweep::StartOptions opts;
      opts.env = {"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"};
      s.pid = hs::sweep::start_logged(args, (s.dir / "log").string(), opts);
      s.started = Clock::now();
      s.killed = false;
      ++next;
      ++running;
    }
    int ws = 0;
    const pid_t pid = waitpid(-1, &ws, WNOHANG);
    if (pid <= 0) {
      for (auto& s : slots) {
        const double age = std::chrono::duration<double>(Clock::now() - s.started).count();
        if (s.pid != 0 && !s.killed && age > timeout) {
          kill(s.pid, SIGKILL);
          s.killed = true;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    for (auto& s : slots) {
      if (s.pid != pid) continue;
      const std::string output = read_file(s.dir / "log");
      const int sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
      const int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
      const auto v = hs::fuzz::judge(s.c, code, sig, s.killed, output);
      ++tally.by_kind[s.c.kind];
      ++tally.by_exit[sig ? "signal" : s.killed ? "hang" : "exit " + std::to_string(code)];
      if (v.ok) {
        ++tally.passed;
      } else {
        ++tally.failed;
        keep_failure(out_dir, s, bin, v.problem, output);
      }
      s.pid = 0;
      --running;
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  std::cout << "fuzz: " << cases << " cases (seed " << seed << ") in " << wall << " s:";
  for (const auto& [k, n] : tally.by_kind) std::cout << " " << k << " " << n;
  std::cout << ";";
  for (const auto& [k, n] : tally.by_exit) std::cout << " " << k << ": " << n;
  std::cout << "\nfuzz: " << tally.passed << " passed, " << tally.failed << " failed\n";
  return tally.failed == 0 ? 0 : 1;
}
