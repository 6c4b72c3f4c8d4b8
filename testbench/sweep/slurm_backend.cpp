#include "testbench/sweep/slurm_backend.h"

#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "testbench/sweep/build_info.h"
#include "testbench/sweep/external_command.h"
#include "testbench/sweep/point_pool.h"
#include "testbench/sweep/progress_bar.h"
#include "testbench/sweep/sweep_output.h"
#include "tlm/common/errors.h"

namespace hs::sweep {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kDefaultMaxTasks = 100;  // default chunking: at most this many array tasks
constexpr size_t kMaxArrayTasks = 1000;   // Slurm's default MaxArraySize is 1001

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open", path));
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {  // syntax, or a number beyond a double's range
    throw InputError(fmt::format("{}: malformed JSON: {}", path, e.what()));
  }
}

void require_tool(const std::string& program) {
  if (!on_path(program)) {
    throw ToolError(fmt::format(
        "{} not found on PATH: the Slurm backend needs Slurm's client commands (Debian package "
        "slurm-client) on a machine that can submit to the cluster",
        program));
  }
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

std::string task_output(const SlurmJob& job, size_t task) {
  return fmt::format("{}/task-{}.out", job.submit_dir, task);
}

std::string next_submit_dir(const std::string& slurm_dir) {
  for (int n = 1;; ++n) {
    const std::string d = fmt::format("{}/submit-{}", slurm_dir, n);
    if (!fs::exists(d)) return d;
  }
}

// The states of the job's array tasks still in the queue; nullopt if squeue itself failed.
std::optional<std::vector<std::string>> queued_states(const std::string& job_id) {
  const auto r = run_command({"squeue", "--noheader", "--jobs", job_id, "--format", "%T"});
  if (!r.started) return std::nullopt;
  // Once a finished job is purged from the controller, squeue no longer knows its id.
  if (r.exit_code != 0) {
    if (r.err.find("Invalid job id") != std::string::npos) return std::vector<std::string>{};
    return std::nullopt;
  }
  std::vector<std::string> states;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) {
    if (!l.empty()) states.push_back(l);
  }
  return states;
}

}  // namespace

std::vector<std::string> SlurmJob::keys() const {
  std::vector<std::string> out;
  for (const auto& c : chunks) out.insert(out.end(), c.begin(), c.end());
  return out;
}

void check_slurm_time(const std::string& t) {
  static const std::regex format(
      R"(^(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d+|\d+-\d+:\d{1,2}|\d+-\d+:\d{1,2}:\d{1,2})$)");
  if (!std::regex_match(t, format)) {
    throw InputError(fmt::format(
        "--time '{}': expected a Slurm time limit: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or "
        "D-HH:MM:SS",
        t));
  }
}

SlurmJob submit_to_slurm(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                         const SweepOptions& opts) {
  SlurmJob job;
  if (points.empty()) return job;
  if (!opts.time_limit.empty()) check_slurm_time(opts.time_limit);
  require_tool("sbatch");
  const size_t chunk =
      opts.chunk ? opts.chunk : (points.size() + kDefaultMaxTasks - 1) / kDefaultMaxTasks;
  job.tasks = (points.size() + chunk - 1) / chunk;
  if (job.tasks > kMaxArrayTasks) {
    throw InputError(
        fmt::format("--chunk {} makes {} array tasks (Slurm allows about {}); use a larger --chunk",
                    chunk, job.tasks, kMaxArrayTasks));
  }
  const std::string sweep_dir = fs::absolute(opts.out_dir).lexically_normal().string();
  const PointStore store(sweep_dir);
  job.submit_dir = next_submit_dir(sweep_dir + "/slurm");
  fs::create_directories(job.submit_dir);

  Json chunks = Json::array();
  for (size_t t = 0; t < job.tasks; ++t) {
    std::vector<std::string> keys;
    Json entries = Json::array();
    for (size_t i = t * chunk; i < std::min(points.size(), (t + 1) * chunk); ++i) {
      keys.push_back(points[i].key);
      entries.push_back({{"point", points[i].index}, {"key", points[i].key}});
      // The wait counts fresh records: a failed point's old record goes before it reruns.
      std::remove(store.record_path(points[i].key).c_str());
    }
    job.chunks.push_back(keys);
    chunks.push_back(entries);
  }
  const std::string tasks_file = job.submit_dir + "/tasks.json";
  // The sweep goes with its tasks: a later sweep into DIR must not change what they run.
  std::ofstream(tasks_file)
      << Json{{"sweep_dir", sweep_dir}, {"sweep", spec.to_json()}, {"chunks", chunks}}.dump(1)
      << "\n";

  std::string script = "#!/bin/bash\n#SBATCH --job-name=hybridsim-sweep\n";
  script += fmt::format("#SBATCH --array=0-{}\n", job.tasks - 1);
  script += fmt::format("#SBATCH --output={}/task-%a.out\n", job.submit_dir);
  if (spec.processes > 1) {
    // Each of the task's points at once runs as srun --ntasks=P: P tasks of one CPU apiece.
    script += fmt::format("#SBATCH --ntasks={}\n", spec.processes * opts.jobs);
    script += "#SBATCH --cpus-per-task=1\n";
  } else {
    script += fmt::format("#SBATCH --cpus-per-task={}\n", opts.jobs);
  }
  if (!opts.partition.empty()) script += fmt::format("#SBATCH --partition={}\n", opts.partition);
  if (!opts.time_limit.empty()) script += fmt::format("#SBATCH --time={}\n", opts.time_limit);
  script += fmt::format("exec {} sweep-task {} --task \"$SLURM_ARRAY_TASK_ID\"\n",
                        shell_quote(opts.self), shell_quote(tasks_file));
  const std::string script_file = job.submit_dir + "/job.sh";
  std::ofstream(script_file) << script;

  const auto r = run_command({"sbatch", "--parsable", script_file});
  if (!r.started || r.exit_code != 0) {
    throw ToolError(fmt::format("sbatch refused the sweep's job array ({}): {}", script_file,
                                first_line(r.err.empty() ? r.out : r.err)));
  }
  job.id = first_line(r.out).substr(0, r.out.find(';'));
  if (job.id.empty() || job.id.find_first_not_of("0123456789") != std::string::npos) {
    throw ToolError(fmt::format("sbatch printed no job id: '{}'", first_line(r.out)));
  }
  Json current = {{"job_id", job.id},
                  {"submit_dir", job.submit_dir},
                  {"tasks", job.tasks},
                  {"chunks", job.chunks}};
  std::ofstream(sweep_dir + "/slurm/current.json") << current.dump(1) << "\n";
  return job;
}

std::optional<SlurmJob> current_slurm_job(const std::string& dir) {
  const std::string path = dir + "/slurm/current.json";
  if (!fs::exists(path)) return std::nullopt;
  const Json j = read_json_file(path);
  try {
    SlurmJob job;
    job.id = j.at("job_id").get<std::string>();
    job.submit_dir = j.at("submit_dir").get<std::string>();
    job.tasks = j.at("tasks").get<size_t>();
    job.chunks = j.at("chunks").get<std::vector<std::vector<std::string>>>();
    return job;
  } catch (const Json::exception& e) {
    throw InputError(fmt::format("{}: not a Slurm job record ({})", path, e.what()));
  }
}

bool slurm_job_active(const SlurmJob& job) {
  require_tool("squeue");
  const auto states = queued_states(job.id);
  if (!states) throw ToolError(fmt::format("squeue cannot tell the state of job {}", job.id));
  return !states->empty();
}

void wait_for_slurm(const SlurmJob& job, const PointStore& store, size_t total, bool quiet,
                    double poll_seconds) {
  if (job.id.empty()) return;
  std::map<std::string, size_t> open;  // key -> array task, for points not yet recorded
  for (size_t t = 0; t < job.chunks.size(); ++t) {
    for (const auto& k : job.chunks[t]) open[k] = t;
  }
  ProgressBar bar(fmt::format("slurm job {}", job.id), total, total - open.size(), !quiet);
  size_t done = 0, failed = 0;
  auto scan = [&] {
    for (auto it = open.begin(); it != open.end();) {
      if (auto r = store.read(it->first)) {
        ++done;
        failed += r->passed() ? 0 : 1;
        it = open.erase(it);
      } else {
        ++it;
      }
    }
  };
  // Points in flight: not recorded yet, but started by this submission's array tasks.
  // Counted only while some array task runs.
  const std::string attempt = fs::path(job.submit_dir).filename().string();
  auto running_points = [&] {
    size_t n = 0;
    for (const auto& [key, _] : open) n += store.started_by(key, attempt);
    return n;
  };
  scan();
  if (!open.empty()) require_tool("squeue");  // a finished job needs no queue to collect
  auto last_answer = Clock::now();
  for (;;) {
    scan();
    const auto states = queued_states(job.id);
    size_t running = 0;
    if (states) {
      last_answer = Clock::now();
      if (std::count(states->begin(), states->end(), "RUNNING") > 0) running = running_points();
    }
    bar.update(done, failed, running);
    if (open.empty() || (states && states->empty())) break;
    if (!states && Clock::now() - last_answer > std::chrono::minutes(2)) {
      throw ToolError(fmt::format(
          "squeue has not answered for 2 minutes; job {} may still be running: run `hybridsim "
          "collect {}` later",
          job.id, fs::path(store.dir()).parent_path().string()));
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_seconds));
  }
  scan();
  for (const auto& [key, task] : open) {
    PointRecord lost;
    lost.key = key;
    lost.status = "lost";
    lost.error = fmt::format(
        "Slurm array task {} of job {} ended without recording this point; "
        "see {}",
        task, job.id, task_output(job, task));
    store.write(lost);
    ++done;
    ++failed;
  }
  bar.update(done, failed, 0);
  bar.finish();
}

int run_slurm_task(const std::string& tasks_file, size_t task, const std::string& self) {
  const Json tasks = read_json_file(tasks_file);
  if (!tasks.contains("sweep_dir") || !tasks.contains("sweep") || !tasks.contains("chunks") ||
      !tasks["chunks"].is_array()) {
    throw InputError(tasks_file + ": not a sweep tasks file");
  }
  if (task >= tasks["chunks"].size()) {
    throw InputError(fmt::format("--task {}: {} has tasks 0 to {}", task, tasks_file,
                                 tasks["chunks"].size() - 1));
  }
  const std::string dir = tasks["sweep_dir"].get<std::string>();
  const SweepSpec spec = SweepSpec::from_json(tasks["sweep"], tasks_file);
  const auto all = expand(spec);
  std::vector<SweepPoint> mine;
  for (const auto& e : tasks["chunks"][task]) {
    const size_t i = e.at("point").get<size_t>();
    if (i >= all.size() || all[i].key != e.at("key").get<std::string>()) {
      throw InputError(
          fmt::format("{}: point {} does not match its key; the file was edited", tasks_file, i));
    }
    mine.push_back(all[i]);
  }
  const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
  const char* ntasks = std::getenv("SLURM_NTASKS");
  const int jobs = spec.processes > 1
                       ? std::max(1, (ntasks ? std::atoi(ntasks) : 1) / spec.processes)
                   : cpus ? std::max(1, std::atoi(cpus))
                          : 1;
  // The submission folder names the attempt, for the submitter's count of running points.
  const PointStore store(dir, fs::path(tasks_file).parent_path().filename().string());
  std::printf("hybridsim sweep-task %zu: %zu points, %d at a time, on %s\n", task, mine.size(),
              jobs, host_name().c_str());
  size_t reported = 0;
  PoolStatus last;
  run_points(
      spec, mine, store, self, jobs,
      [&](const PoolStatus& s) {
        last = s;
        if (s.done > reported) {
          reported = s.done;
          std::printf("  %zu/%zu finished, %zu failed\n", s.done, mine.size(), s.failed);
          std::fflush(stdout);
        }
      },
      PointLauncher::Slurm);
  if (last.interrupted) {
    std::printf("  interrupted (time limit or scancel): the points not recorded will be lost\n");
    return kInterruptedExit;
  }
  return last.failed == 0 ? 0 : 1;
}

}  // namespace hs::sweep
