#include "testbench/bench/ami_cases.h"

#include <cstdio>
#include <string>
#include <vector>

#include "testbench/support/scenario_run.h"

namespace hs::bench {

namespace {

using Json = nlohmann::json;

const std::vector<uint32_t> kSizes = {32, 1024, 16384, 262144, 4194304};
const std::vector<std::string> kProtocols = {"A", "B", "C", "eager", "rendezvous"};
const std::vector<std::string> kReadiness = {"early", "late", "delayed"};

Json message_sizes() {
  Json rows = Json::array();
  for (const auto& ready : kReadiness) {
    for (const auto& proto : kProtocols) {
      for (uint32_t bytes : kSizes) {
        std::vector<std::string> sets = {
            "workload.ami.protocol=" + proto, "workload.receive=" + ready,
            "workload.bytes=" + std::to_string(bytes), "workload.messages=1"};
        if (proto == "eager") {
          // Pure eager: every size under the limit, credits for the largest message.
          sets.push_back("workload.ami.eager_limit=16777216");
          sets.push_back("workload.ami.temp_bytes=8388608");
        }
        const Json r = hs::testing::run_scenario("torus_ami", sets);
        if (!hs::testing::passed(r)) {
          throw std::runtime_error("ami_message_sizes: " + proto + " " + ready + " " +
                                   std::to_string(bytes) + ": " + hs::testing::violations(r));
        }
        const Json& w = r["results"];
        rows.push_back({{"protocol", proto},
                        {"receive", ready},
                        {"bytes", bytes},
                        {"completion_ns", w["completion_ns"][0]},
                        {"send_done_ns", w["send_done_ns"][0]},
                        {"bytes_moved_twice", w["bytes_moved_twice"]},
                        {"temp_peak_bytes", w["temp_peak_bytes"]},
                        {"temp_bytes", w["temp_bytes"]},
                        {"stops", w["stops"]},
                        {"rdma_bytes", w["rdma_bytes"]}});
      }
    }
  }
  return {{"rows", rows}};
}

double completion(const Json& rows, const std::string& p, const std::string& ready,
                  uint32_t bytes) {
  for (const auto& r : rows) {
    if (r["protocol"] == p && r["receive"] == ready && r["bytes"] == bytes) {
      return r["completion_ns"].get<double>();
    }
  }
  return -1;
}

}  // namespace

Json run_ami_case(const std::string& name) {
  if (name == "ami_message_sizes") return message_sizes();
  return Json();
}

void print_ami_summary(const Json& all) {
  if (!all.contains("ami_message_sizes")) return;
  const Json& rows = all["ami_message_sizes"]["rows"];
  for (const auto& ready : kReadiness) {
    std::printf("AMI completion (us), RECEIVE %s:\n  %-10s", ready.c_str(), "bytes");
    for (const auto& p : kProtocols) std::printf(" %11s", p.c_str());
    std::printf("\n");
    for (uint32_t b : kSizes) {
      std::printf("  %-10u", b);
      for (const auto& p : kProtocols) std::printf(" %11.2f", completion(rows, p, ready, b) / 1e3);
      std::printf("\n");
    }
  }
  for (const auto& r : rows) {
    if (r["bytes"] != 4194304) continue;
    std::printf("AMI 4 MiB %-10s %-8s moved twice %8llu B, peak temp %8llu of %8llu B\n",
                r["protocol"].get<std::string>().c_str(), r["receive"].get<std::string>().c_str(),
                static_cast<unsigned long long>(r["bytes_moved_twice"].get<uint64_t>()),
                static_cast<unsigned long long>(r["temp_peak_bytes"].get<uint64_t>()),
                static_cast<unsigned long long>(r["temp_bytes"].get<uint64_t>()));
  }
}

}  // namespace hs::bench
