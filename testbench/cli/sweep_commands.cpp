#include "testbench/cli/sweep_commands.h"

#include <filesystem>
#include <iostream>
#include <thread>

#include "testbench/sweep/model_check.h"
#include "testbench/sweep/plot.h"
#include "testbench/sweep/slurm_backend.h"
#include "testbench/sweep/sweep_command.h"
#include "tlm/common/errors.h"

namespace hs::cli {

struct SweepCommands::State {
  CLI::App *sweep = nullptr, *task = nullptr, *collect = nullptr, *plot = nullptr;
  std::string sweep_file;
  std::vector<std::string> sets;
  sweep::SweepOptions opts;
  CLI::Option* jobs_option = nullptr;
  size_t sample_points = 0;
  std::string tasks_file;
  size_t task_index = 0;
  std::string collect_dir;
  bool no_wait = false, collect_quiet = false;
  double collect_poll = 2;
  sweep::PlotRequest figure;
};

SweepCommands::SweepCommands(CLI::App& app) : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.opts.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.sweep = app.add_subcommand(
      "sweep",
      "Run every point of a sweep file, locally or as a Slurm job array; rerunning skips the "
      "points that already passed");
  s.sweep->add_option("sweep", s.sweep_file, "sweep file (JSON)")->required();
  s.sweep
      ->add_option("--set", s.sets,
                   "fix a parameter at every point, as the file's \"fixed\" does (repeatable)")
      ->type_name("NAME=VALUE");
  s.jobs_option = s.sweep->add_option("--jobs", s.opts.jobs,
                                      "local: points run at once (default: cores); slurm: CPUs "
                                      "and points at once per array task (default 1)");
  s.jobs_option->check(CLI::Range(1, 1024));
  s.sweep->add_option("--out", s.opts.out_dir,
                      "output directory (default: sweep-out/NAME for sweep file NAME.json)");
  s.sweep->add_option("--backend", s.opts.backend, "where the points run: local or slurm")
      ->check(CLI::IsMember({"local", "slurm"}));
  s.sweep->add_option("--partition", s.opts.partition, "slurm: the partition to submit to");
  s.sweep->add_option("--time", s.opts.time_limit,
                      "slurm: time limit per array task (minutes, HH:MM:SS, D-HH:MM...)");
  s.sweep
      ->add_option("--chunk", s.opts.chunk,
                   "slurm: points per array task (default: enough for at most 100 tasks)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30));
  s.sweep->add_flag("--detach", s.opts.detach,
                    "slurm: submit and return; `hybridsim collect DIR` gathers the results");
  s.sweep->add_option("--poll", s.opts.poll_seconds, "slurm: seconds between queue checks")
      ->check(CLI::Range(0.05, 600.0));
  s.sweep
      ->add_option("--sample", s.sample_points,
                   "sampled sweeps: draw this many points instead of the file's count (the "
                   "first N points of the file's draw)")
      ->check(CLI::Range(size_t{1}, size_t{1'000'000}));
  s.sweep->add_flag("--dry-run", s.opts.dry_run,
                    "check the sweep against the model and count its points; run nothing");
  s.sweep->add_flag("--quiet", s.opts.quiet, "no progress output");

  s.task = app.add_subcommand(
      "sweep-task", "Run one Slurm array task's points (what a submitted sweep's job runs)");
  s.task->group("");  // internal: what a submitted job runs, not for users
  s.task->add_option("tasks", s.tasks_file, "the submission's tasks.json")->required();
  s.task->add_option("--task", s.task_index, "array task index ($SLURM_ARRAY_TASK_ID)")->required();

  s.collect = app.add_subcommand(
      "collect", "Wait for a detached Slurm sweep and write its results (or re-merge any sweep)");
  s.collect->add_option("dir", s.collect_dir, "the sweep's output directory")->required();
  s.collect->add_flag("--no-wait", s.no_wait,
                      "write what is recorded now, even if the job is still running");
  s.collect->add_option("--poll", s.collect_poll, "seconds between queue checks")
      ->check(CLI::Range(0.05, 600.0));
  s.collect->add_flag("--quiet", s.collect_quiet, "no progress output");

  s.plot = app.add_subcommand("plot", "Plot a statistic of a sweep's results with gnuplot");
  s.plot->add_option("results", s.figure.results, "results.csv, or the sweep directory")
      ->required();
  s.plot->add_option("--x", s.figure.x, "the swept parameter on the x axis")->required();
  s.plot->add_option("--y", s.figure.y, "the statistic on the y axis")->required();
  s.plot->add_option("--group", s.figure.group, "one line per value of this parameter");
  s.plot->add_option("--where", s.figure.where, "plot only rows where COLUMN=VALUE (repeatable)")
      ->type_name("COLUMN=VALUE");
  s.plot->add_flag("--log-x", s.figure.log_x, "logarithmic x axis");
  s.plot->add_flag("--log-y", s.figure.log_y, "logarithmic y axis");
  s.plot->add_option("--out", s.figure.out, "FILE.png or FILE.svg (default: an .svg by the CSV)");
  s.plot->add_option("--title", s.figure.title, "figure title");
  s.plot->add_option("--xlabel", s.figure.xlabel, "x axis label (default: the --x column)");
  s.plot->add_option("--ylabel", s.figure.ylabel, "y axis label (default: the --y column)");
}

SweepCommands::~SweepCommands() = default;

std::optional<int> SweepCommands::dispatch(const std::string& self) {
  State& s = *s_;
  if (*s.sweep) {
    s.opts.self = self;
    if (s.opts.out_dir.empty()) {
      s.opts.out_dir =
          (std::filesystem::path("sweep-out") / std::filesystem::path(s.sweep_file).stem())
              .string();
    }
    if (s.opts.backend == "local") {
      for (const char* flag : {"--partition", "--time", "--chunk", "--detach", "--poll"}) {
        if (s.sweep->count(flag)) {
          throw InputError(std::string(flag) + " applies only to --backend slurm");
        }
      }
    } else if (!s.jobs_option->count()) {
      s.opts.jobs = 1;
    }
    if (!s.opts.time_limit.empty()) sweep::check_slurm_time(s.opts.time_limit);
    auto spec = sweep::load_checked_sweep(s.sweep_file, s.sets);
    if (s.sample_points) {
      if (!spec.sampled()) {
        throw InputError(s.sweep_file +
                         ": --sample applies only to a sampled sweep (one with "
                         "a \"sample\" field)");
      }
      spec.sample_points = s.sample_points;
    }
    return sweep::run_sweep(spec, s.opts);
  }
  if (*s.task) return sweep::run_slurm_task(s.tasks_file, s.task_index, self);
  if (*s.collect) {
    return sweep::collect(s.collect_dir, !s.no_wait, s.collect_quiet, s.collect_poll);
  }
  if (*s.plot) {
    std::cout << sweep::plot_results(s.figure) << "\n";
    return 0;
  }
  return std::nullopt;
}

}  // namespace hs::cli
