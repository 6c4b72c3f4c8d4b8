#include "testbench/sweep/point_store.h"

#include <fmt/format.h>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tlm/common/errors.h"
#include "tlm/common/output_file.h"

namespace hs::sweep {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Json PointRecord::to_json() const {
  return {{"key", key},
          {"point", point},
          {"params", params},
          {"seed", seed},
          {"status", status},
          {"exit_code", exit_code},
          {"error", error},
          {"wall_seconds", wall_seconds},
          {"sim_wall_seconds", sim_wall_seconds},
          {"host", host},
          {"git_revision", git_revision}};
}

PointRecord PointRecord::from_json(const Json& j) {
  PointRecord r;
  r.key = j.at("key").get<std::string>();
  r.point = j.at("point").get<size_t>();
  r.params = j.at("params");
  r.seed = j.at("seed").get<uint64_t>();
  r.status = j.at("status").get<std::string>();
  r.exit_code = j.at("exit_code").get<int>();
  r.error = j.value("error", "");
  r.wall_seconds = j.value("wall_seconds", 0.0);
  r.sim_wall_seconds = j.value("sim_wall_seconds", 0.0);
  r.host = j.value("host", "");
  r.git_revision = j.value("git_revision", "");
  return r;
}

std::string status_of_exit(int exit_code, bool signalled) {
  if (signalled) return "crashed";
  switch (exit_code) {
    case 0:
      return "passed";
    case 1:
      return "failed";
    case 2:
      return "bad-input";
    default:
      return "crashed";
  }
}

PointStore::PointStore(const std::string& sweep_dir, std::string attempt)
    : dir_((fs::path(sweep_dir) / "points").string()), attempt_(std::move(attempt)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError(fmt::format("{}: cannot create directory: {}", dir_, ec.message()));
}

std::string PointStore::record_path(const std::string& key) const {
  return fmt::format("{}/{}.json", dir_, key);
}
std::string PointStore::report_path(const std::string& key) const {
  return fmt::format("{}/{}.report.json", dir_, key);
}
std::string PointStore::log_path(const std::string& key) const {
  return fmt::format("{}/{}.log", dir_, key);
}

std::optional<PointRecord> PointStore::read(const std::string& key) const {
  std::ifstream in(record_path(key));
  if (!in) return std::nullopt;
  try {
    return PointRecord::from_json(Json::parse(in));
  } catch (const Json::exception&) {
    return std::nullopt;  // a torn or foreign file: the point runs again
  }
}

std::string PointStore::started_path(const std::string& key) const {
  return fmt::format("{}/{}.started", dir_, key);
}

void PointStore::mark_started(const std::string& key) const {
  if (!attempt_.empty()) write_output_file("point start", started_path(key), attempt_ + "\n");
}

bool PointStore::started_by(const std::string& key, const std::string& attempt) const {
  std::ifstream in(started_path(key));
  std::string who;
  return std::getline(in, who) && who == attempt;
}

void PointStore::write(const PointRecord& record) const {
  write_output_file("point record", record_path(record.key), record.to_json().dump(1) + "\n");
}

std::optional<Json> PointStore::read_report(const std::string& key) const {
  std::ifstream in(report_path(key));
  if (!in) return std::nullopt;
  try {
    return Json::parse(in);
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

}  // namespace hs::sweep
