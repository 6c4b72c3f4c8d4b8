// hybridsim: the command-line front end.
//   hybridsim run SCENARIO [--set k=v]... [--seed N] [--report F.json] [--vcd F.vcd|F.fst]
//                          [--trace F.json] [--quiet]
//   hybridsim params [SCENARIO]       hybridsim stats [SCENARIO]
//   hybridsim sweep SWEEP.json [--jobs N] [--out DIR] [--backend local|slurm] ...
//   hybridsim collect DIR        hybridsim plot RESULTS --x P --y S ...   (sweep_commands.h)
// Exit codes: 0 ok, 1 a checker or firmware assertion failed in the model (or a sweep point
// failed), 2 bad input or an output that could not be written, 3 an external tool (gnuplot,
// Slurm) failed, 130 a run or sweep interrupted (SIGINT or SIGTERM).
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <systemc>
#include <thread>

#include "testbench/cli/mpirun_command.h"
#include "testbench/cli/sweep_commands.h"
#include "testbench/runner/model.h"
#include "testbench/runner/scenario_file.h"
#include "testbench/runner/simulation.h"
#include "tlm/common/errors.h"
#include "tlm/common/memory_budget.h"
#include "tlm/common/spelling.h"
#include "tlm/params/param_registry.h"
#include "tlm/params/quantity.h"
#include "tlm/stats/statistics.h"

namespace {

using hs::runner::RunOptions;

// Builds the scenario's model and checks its parameters, as a run would, without running it.
std::unique_ptr<hs::runner::Simulation> elaborate(const std::string& scenario,
                                                  const std::vector<std::string>& sets) {
  RunOptions o;
  o.scenario = scenario;
  o.sets = sets;
  return std::make_unique<hs::runner::Simulation>(o);
}

void list_params(const std::string& scenario, const std::vector<std::string>& sets) {
  const auto sim = elaborate(scenario, sets);
  const auto& all = hs::ParamRegistry::instance().all();
  size_t w = 0;
  for (const auto& p : all) w = std::max(w, p.name.size());
  std::cout << fmt::format("Parameters of scenario {} ({} parameters)\n", sim->scenario().path,
                           all.size());
  // The one rule for numbers (tlm/params/quantity.h), where every user looks for units.
  std::cout << "A bare number is in the unit shown with it: ns for times, Hz for clocks, B for "
               "sizes.\nA suffix says otherwise, in any case: 20us, 1.5GHz, 4KiB, 1TB.\n\n";
  for (const auto& p : all) {
    // Quantities in the unit that reads best ("16GiB", "1.8GHz"), as --set accepts them.
    std::string value, unit;
    if (p.value.is_number() && hs::has_suffixes(p.unit)) {
      value = hs::format_quantity(p.value.get<double>(), p.unit, p.value.is_number_integer());
    } else {
      value = p.value.is_string()         ? p.value.get<std::string>()
              : p.value.is_number_float() ? fmt::format("{:g}", p.value.get<double>())
                                          : p.value.dump();
      unit = p.unit.empty() ? "" : " " + p.unit;
    }
    std::string from = p.source == "default" ? "" : "   [from " + p.source + "]";
    std::cout << fmt::format("{:<{}}  {:>12}{:<9} {:<6} {}{}{}\n", p.name, w, value, unit,
                             hs::to_string(p.type), p.description,
                             p.constraint.empty() ? "" : " (" + p.constraint + ")", from);
  }
}

// Every statistic the scenario's model reports, by group, with its unit and description, then
// the workload's results (named as sweeps and plots name them: results:PATH).
void list_stats(const std::string& scenario, const std::vector<std::string>& sets) {
  const auto sim = elaborate(scenario, sets);
  const auto& groups = hs::StatsRegistry::instance().reported_groups();
  const auto& results = sim->model().results_declared.all();
  size_t count = 0, w = 0, uw = 0;
  for (const auto* g : groups) {
    for (const auto& m : g->catalogue()) {
      ++count;
      w = std::max(w, m.name.size());
      uw = std::max(uw, m.unit.size());
    }
  }
  for (const auto& r : results) {
    w = std::max(w, r.path.size());
    uw = std::max(uw, r.unit.size());
  }
  std::cout << fmt::format(
      "Statistics of scenario {} ({} in {} groups, and {} results; the JSON report has them "
      "under \"stats\", by group, and \"results\"; sweeps and plots name them GROUP:NAME and "
      "results:PATH)\n",
      sim->scenario().path, count, groups.size(), results.size());
  for (const auto* g : groups) {
    std::cout << "\n" << g->path() << "\n";
    for (const auto& m : g->catalogue()) {
      std::cout << fmt::format("  {:<{}}  {:<{}}  {}\n", m.name, w, m.unit, uw, m.description);
    }
  }
  if (results.empty()) return;
  std::cout << "\nresults (of workload " << sim->scenario().workload
            << "; '*' stands for any key or list index)\n";
  for (const auto& r : results) {
    std::cout << fmt::format("  {:<{}}  {:<{}}  {}\n", r.path, w, r.unit, uw, r.description);
  }
}

// The text report goes to standard output: a full disk or /dev/full must not pass unnoticed.
void check_standard_output() {
  errno = 0;
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return;
  int err = errno;
  if (err == 0) {
    // The failure came at an earlier automatic flush, whose errno is gone: a probe says why.
    if (write(STDOUT_FILENO, "\n", 1) < 0) err = errno;
  }
  std::string where = "standard output";
  char buf[4096];
  const ssize_t n = readlink("/proc/self/fd/1", buf, sizeof buf - 1);
  if (n > 0) where += " (" + std::string(buf, static_cast<size_t>(n)) + ")";
  throw hs::InputError(fmt::format("cannot write the report to {}: {}", where,
                                   err ? std::strerror(err) : "a write failed"));
}

std::string self_exe(const char* argv0) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return argv0;
  buf[n] = '\0';
  return buf;
}

// A command line that CLI11 refused, said in the user's terms with what to do next: the
// command missing or misspelt, or what the command takes.
std::string explain_parse_error(const CLI::App& app, int argc, char* argv[],
                                const CLI::ParseError& e) {
  std::vector<std::string> commands;
  for (const auto* sub :
       app.get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); })) {
    commands.push_back(sub->get_name());
  }
  const std::string listed = fmt::format("{}", fmt::join(commands, ", "));
  // Global options take no values, so the first word that is not an option is the command.
  std::string first;
  for (int i = 1; i < argc && first.empty(); ++i) {
    if (argv[i][0] != '-') first = argv[i];
  }
  if (first.empty()) {
    return fmt::format(
        "a command is required, one of: {}; for example 'hybridsim run default' "
        "('hybridsim --help' says what each does)",
        listed);
  }
  const auto all = app.get_subcommands([](const CLI::App*) { return true; });
  if (std::none_of(all.begin(), all.end(),
                   [&](const CLI::App* a) { return a->get_name() == first; })) {
    const std::string guess = hs::closest(first, commands);
    return fmt::format(
        "'{}' is not a command{}; the commands are: {} ('hybridsim --help' says "
        "what each does)",
        first, guess.empty() ? "" : " (did you mean '" + guess + "'?)", listed);
  }
  return fmt::format("{}\n'hybridsim {} --help' lists what it takes", e.what(), first);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  hs::install_out_of_memory_handlers(
      "make the machine smaller, or run it on a host with more memory ('hybridsim params' "
      "lists what sizes it; sim.memory_limit sets the memory the estimate before a run "
      "compares with)");
  CLI::App app{
      "hybridsim: a cycle-approximate SystemC/TLM-2.0 model of IBM's hybrid (host + Cell) "
      "node and Blue Gene/P-style torus machine"};
  app.require_subcommand(1);
  app.set_version_flag("--version", HYBRIDSIM_VERSION);
  std::string workloads;
  for (const auto& l : hs::runner::known_workloads()) workloads += "\n  " + l;
  std::string scenarios;
  for (const auto& s : hs::runner::builtin_scenarios()) scenarios += " " + s;
  app.footer(
      "Built-in scenarios:" + scenarios + "\nWorkloads:" + workloads +
      "\nExit codes: 0 ok, 1 model check or firmware assertion failed (or a sweep point failed), "
      "2 bad input or an output could not be written, 3 an external tool (gnuplot, Slurm) "
      "failed, 130 a run or sweep was interrupted by SIGINT or SIGTERM (a run writes what it has, "
      "marked interrupted; rerun a sweep to resume).");

  RunOptions ro;
  auto* run = app.add_subcommand("run", "Run a scenario and print its report");
  run->add_option("scenario", ro.scenario, "scenario file or built-in scenario name")->required();
  run->add_option("--set", ro.sets,
                  "override a parameter: name=value (repeatable; '*' matches any run)")
      ->type_name("NAME=VALUE");
  // Kept as text and converted in base 10 below: CLI11 would read a leading 0 as octal.
  std::string seed;
  run->add_option("--seed", seed, "random seed (overrides the scenario's)")
      ->check(CLI::Validator(
          [](std::string& v) {
            if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
              return "--seed must be a non-negative integer, got '" + v + "'";
            }
            // Above 2^64 - 1 the conversion would saturate silently: refuse instead.
            const std::string digits = v.substr(std::min(v.find_first_not_of('0'), v.size()));
            const std::string max = "18446744073709551615";
            const bool fits =
                digits.size() < max.size() || (digits.size() == max.size() && digits <= max);
            return fits ? std::string() : "--seed " + v + " is above the largest seed, " + max;
          },
          "UINT"));
  run->add_option("--report", ro.report_path,
                  "write the full report as JSON (- : to standard output, instead of the text "
                  "report)");
  run->add_option(
      "--stats-csv", ro.stats_csv_path,
      "write every statistic as CSV: group, statistic, value, unit, description (- : to "
      "standard output)");
  run->add_option("--link-csv", ro.link_csv_path,
                  "write every torus link's utilisation over the measurement window as CSV (- : to "
                  "standard output)");
  run->add_option("--trace-start", ro.trace_start,
                  "trace only what ends at or after this simulated time (e.g. 20us)");
  run->add_option("--trace-end", ro.trace_end,
                  "trace only what starts at or before this simulated time (e.g. 50us)");
  run->add_option("--trace-only", ro.trace_only,
                  "trace only tracks whose names match this pattern ('*' any run; e.g. "
                  "'node0.acc0.*')");
  run->add_option("--trace-limit", ro.trace_limit,
                  "stop tracing (with a warning; the run goes on) once the trace reaches this "
                  "size (default 2GiB)");
  run->add_option("--vcd", ro.vcd_path,
                  "write a waveform, FILE.vcd or FILE.fst (needs vcd2fst), with FILE.gtkw beside "
                  "it: gtkwave FILE.gtkw");
  run->add_option(
      "--trace", ro.trace_path,
      "write transaction timelines (Chrome/Perfetto JSON, open in ui.perfetto.dev; - : to "
      "standard output)");
  run->add_flag("--quiet", ro.quiet, "print nothing but errors");
  run->add_flag("--progress", ro.progress,
                "print a plain progress line on standard error every --progress-every seconds, "
                "even with --quiet (without it: a line kept up to date on a terminal, unless "
                "--quiet, and a plain line a minute otherwise)");
  run->add_option("--progress-every", ro.progress_every_s,
                  "seconds of wall time between plain progress lines (default 10)")
      ->check(CLI::PositiveNumber);

  std::string params_scenario = "default";
  std::vector<std::string> params_sets;
  auto* params =
      app.add_subcommand("params", "List every parameter with its value and description");
  params->add_option("scenario", params_scenario,
                     "scenario file or built-in name (default: default)");
  params->add_option("--set", params_sets, "override a parameter: name=value")
      ->type_name("NAME=VALUE");

  std::string stats_scenario = "default";
  std::vector<std::string> stats_sets;
  auto* stats = app.add_subcommand(
      "stats", "List every statistic a scenario reports, with its unit and description");
  stats->add_option("scenario", stats_scenario,
                    "scenario file or built-in name (default: default)");
  stats->add_option("--set", stats_sets, "override a parameter: name=value")
      ->type_name("NAME=VALUE");

  hs::cli::SweepCommands sweep_commands(app);
  hs::cli::MpirunCommand mpirun_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // A malformed command line is bad input like any other, reported the same way.
    std::cerr << "hybridsim: error: " << explain_parse_error(app, argc, argv, e) << "\n";
    return 2;
  }

  try {
    if (*run) {
      if (!seed.empty()) ro.seed = std::stoull(seed, nullptr, 10);  // checked above
      hs::runner::Simulation sim(ro);
      const int rc = sim.run(std::cout);
      check_standard_output();
      // A run of a user's program that failed ends with the program's own status.
      const int program_status = sim.report()["results"].value("program_exit_status", 0);
      return rc != 0 && program_status != 0 ? program_status : rc;
    }
    if (*params) {
      list_params(params_scenario, params_sets);
      return 0;
    }
    if (*stats) {
      list_stats(stats_scenario, stats_sets);
      return 0;
    }
    if (auto rc = sweep_commands.dispatch(self_exe(argv[0]))) return *rc;
    if (auto rc = mpirun_command.dispatch()) return *rc;
  } catch (const hs::InputError& e) {
    // One problem per line, each prefixed, so every one is visible in a log.
    std::istringstream lines(e.what());
    for (std::string line; std::getline(lines, line);)
      std::cerr << "hybridsim: error: " << line << "\n";
    return 2;
  } catch (const hs::ToolError& e) {
    std::cerr << "hybridsim: error: " << e.what() << "\n";
    return 3;
  } catch (const hs::ModelError& e) {
    std::cerr << "hybridsim: model error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "hybridsim: error: " << hs::out_of_memory_message() << "\n";
    return 2;
  } catch (const sc_core::sc_report& e) {
    std::cerr << "hybridsim: SystemC error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "hybridsim: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
