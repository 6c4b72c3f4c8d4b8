#include "testbench/sweep/sweep_command.h"

#include <fmt/format.h>
#include <filesystem>

#include "testbench/sweep/build_info.h"
#include "testbench/sweep/point_pool.h"
#include "testbench/sweep/progress_bar.h"
#include "testbench/sweep/slurm_backend.h"
#include "testbench/sweep/sweep_output.h"
#include "tlm/common/errors.h"

namespace hs::sweep {

namespace fs = std::filesystem;

namespace {

struct Pending {
  std::vector<SweepPoint> todo;  // no record, or the last run did not pass
  size_t other_build = 0;        // passed points reused that another build ran
  std::string other_revision;    // one such build
};

// "1 seed", "2 seeds".
std::string count_of(size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

Pending pending_points(const std::vector<SweepPoint>& all, const PointStore& store) {
  Pending p;
  const std::string this_build = git_revision();
  for (const auto& point : all) {
    const auto r = store.read(point.key);
    if (!r || !r->passed()) {
      p.todo.push_back(point);
    } else if (r->git_revision != this_build) {
      ++p.other_build;
      p.other_revision = r->git_revision;
    }
  }
  return p;
}

// Reused results stand for the model that produced them: say when that is not this build.
void warn_other_build(const Pending& p, const std::string& dir) {
  if (p.other_build == 0) return;
  std::fprintf(stderr,
               "sweep: warning: %s in the results %s run by hybridsim %s, not this build (%s); "
               "remove %s to run them again\n",
               count_of(p.other_build, "point", "points").c_str(),
               p.other_build == 1 ? "was" : "were", p.other_revision.c_str(),
               git_revision().c_str(), (fs::path(dir) / "points").c_str());
}

}  // namespace

int report_results(const SweepSpec& spec, const std::string& dir, const std::string& backend,
                   bool quiet) {
  const PointStore store(dir);
  const auto points = expand(spec);
  const ResultsSummary s = write_results(spec, points, store, dir, backend);
  if (!quiet) {
    std::fprintf(stderr, "sweep: %zu points: %zu passed, %zu failed%s; results in %s\n",
                 points.size(), s.passed, s.failed,
                 s.missing ? fmt::format(", {} not run", s.missing).c_str() : "",
                 (fs::path(dir) / "results.csv").c_str());
    const size_t shown = std::min<size_t>(s.failures.size(), 10);
    for (size_t i = 0; i < shown; ++i) std::fprintf(stderr, "  %s\n", s.failures[i].c_str());
    if (s.failures.size() > shown) {
      std::fprintf(stderr, "  ... and %zu more (see results.csv)\n", s.failures.size() - shown);
    }
  }
  // A stat no report has is almost always a misspelt name: say so even when quiet.
  for (const auto& stat : s.absent_stats) {
    std::fprintf(stderr,
                 "sweep: warning: no passed point's report has stat '%s' (check its spelling "
                 "against a report: hybridsim run %s --report R.json)\n",
                 stat.c_str(), spec.scenario.c_str());
  }
  return s.failed == 0 && s.missing == 0 ? 0 : 1;
}

int run_sweep(const SweepSpec& spec, const SweepOptions& opts) {
  if (opts.dry_run) {
    const auto all = expand(spec);
    size_t done = 0;
    if (fs::exists(fs::path(opts.out_dir) / "points")) {
      const PointStore store(opts.out_dir);
      const Pending p = pending_points(all, store);
      done = all.size() - p.todo.size();
      warn_other_build(p, opts.out_dir);
    }
    std::printf(
        "%s: %s (%s, %s), every value accepted by scenario %s; %zu already in %s, %zu to "
        "run\n",
        spec.path.c_str(), count_of(all.size(), "point", "points").c_str(),
        count_of(spec.axes.size(), "axis", "axes").c_str(),
        spec.sampled() ? "drawn at random, a seed each"
                       : count_of(spec.seeds.size(), "seed", "seeds").c_str(),
        spec.scenario.c_str(), done, opts.out_dir.c_str(), all.size() - done);
    return 0;
  }
  save_sweep(spec, opts.out_dir);
  const PointStore store(opts.out_dir);
  const auto all = expand(spec);
  const Pending pending = pending_points(all, store);
  warn_other_build(pending, opts.out_dir);
  const auto& todo = pending.todo;
  if (opts.backend == "slurm") {
    const SlurmJob job = submit_to_slurm(spec, todo, opts);
    if (opts.detach || todo.empty()) {
      if (!opts.quiet && !todo.empty()) {
        std::fprintf(stderr,
                     "sweep: submitted Slurm job %s (%zu array tasks, %zu points); collect the "
                     "results with: hybridsim collect %s\n",
                     job.id.c_str(), job.tasks, todo.size(), opts.out_dir.c_str());
      }
      if (opts.detach && !todo.empty()) return 0;
    } else {
      wait_for_slurm(job, store, all.size(), opts.quiet, opts.poll_seconds);
    }
    return report_results(spec, opts.out_dir, "slurm", opts.quiet);
  }
  ProgressBar bar("sweep", all.size(), all.size() - todo.size(), !opts.quiet);
  bool interrupted = false;
  run_points(spec, todo, store, opts.self, opts.jobs, [&](const PoolStatus& s) {
    bar.update(s.done, s.failed, s.running);
    interrupted = s.interrupted;
  });
  bar.finish();
  const int rc = report_results(spec, opts.out_dir, "local", opts.quiet);
  if (interrupted) {
    std::fprintf(stderr, "sweep: interrupted; rerun the same command to run the rest\n");
    return kInterruptedExit;
  }
  return rc;
}

int collect(const std::string& dir, bool wait, bool quiet, double poll_seconds) {
  const SweepSpec spec = load_saved_sweep(dir);
  const PointStore store(dir);
  if (const auto job = current_slurm_job(dir)) {
    if (wait) {
      wait_for_slurm(*job, store, spec.point_count(), quiet, poll_seconds);
    } else if (slurm_job_active(*job)) {
      std::fprintf(stderr,
                   "collect: Slurm job %s is still in the queue; these results are partial\n",
                   job->id.c_str());
    }
    return report_results(spec, dir, "slurm", quiet);
  }
  return report_results(spec, dir, "local", quiet);
}

}  // namespace hs::sweep
