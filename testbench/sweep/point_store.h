// What a sweep knows about each point it has run: one record per point in DIR/points/,
// named by the point's key, next to the point's full report and its log. Records are
// written atomically (rename), so an interrupted sweep keeps every point that finished and
// local runs and Slurm array tasks can fill one directory.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hs::sweep {

struct PointRecord {
  std::string key;
  size_t point = 0;  // index in the sweep that ran it
  nlohmann::json params = nlohmann::json::object();
  uint64_t seed = 1;
  std::string status;  // passed, failed, bad-input, crashed, lost
  int exit_code = -1;
  std::string error;            // first error line of the point's log, if it did not pass
  double wall_seconds = 0;      // the point's process, start to exit, as the runner saw it
  double sim_wall_seconds = 0;  // the simulation alone, as the point's report gives it
  std::string host, git_revision;

  bool passed() const { return status == "passed"; }
  nlohmann::json to_json() const;
  static PointRecord from_json(const nlohmann::json& j);
};

// hybridsim run's exit code as a status word.
std::string status_of_exit(int exit_code, bool signalled);

class PointStore {
 public:
  // `attempt` names who starts points through this store (a Slurm submission), so that its
  // progress can tell the points it started from an earlier attempt's; "" for none.
  explicit PointStore(const std::string& sweep_dir, std::string attempt = "");
  const std::string& dir() const { return dir_; }
  std::string record_path(const std::string& key) const;
  std::string report_path(const std::string& key) const;
  std::string log_path(const std::string& key) const;

  std::optional<PointRecord> read(const std::string& key) const;
  std::string started_path(const std::string& key) const;

  // Records that this store's attempt is starting the point (nothing without an attempt).
  void mark_started(const std::string& key) const;
  // Whether the point's latest start was by `attempt`. An explicit mark, not file times: an
  // earlier attempt's log may be as recent as the clock can tell.
  bool started_by(const std::string& key, const std::string& attempt) const;
  void write(const PointRecord& record) const;
  std::optional<nlohmann::json> read_report(const std::string& key) const;

 private:
  std::string dir_;  // DIR/points
  std::string attempt_;
};

}  // namespace hs::sweep
