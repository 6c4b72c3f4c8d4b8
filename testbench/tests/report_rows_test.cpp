// Workload results as readable rows: units read from names, record lists as tables (cut when
// long), records of records as one table, nested records as sections.
#include <gtest/gtest.h>

#include <sstream>

#include "testbench/runner/report_rows.h"

using hs::runner::format_result;
using hs::runner::write_result_rows;
using Json = nlohmann::json;

TEST(ReportRows, UnitsComeFromTheName) {
  EXPECT_EQ(format_result("latency_ns", 1500.0), "1.500 us");
  EXPECT_EQ(format_result("bytes", 262144), "256.0 KiB (262,144)");
  EXPECT_EQ(format_result("temp_bytes", 100), "100 B");
  EXPECT_EQ(format_result("host_read_GBps", 1.5), "1.500 GB/s");
  EXPECT_EQ(format_result("verified", true), "yes");
  EXPECT_EQ(format_result("messages", 4), "4");
  EXPECT_EQ(format_result("load", 0.25), "0.25");
  EXPECT_EQ(format_result("done_ns", Json::array({1000.0, 2000.0})), "[1.000 us, 2.000 us]");
  EXPECT_EQ(format_result("x_ns", Json::array({1, 2, 3, 4, 5, 6, 7})),
            "7 values, min 1.0 ns mean 4.0 ns max 7.0 ns");
}

// Declared units win over names; numbers in engineering notation.
TEST(ReportRows, DeclaredUnitsAndEngineeringNotation) {
  using hs::runner::engineering;
  using hs::runner::format_value;
  EXPECT_EQ(format_value(56864.0, "ns"), "56.864 us");
  EXPECT_EQ(format_value(0.4597, "fraction"), "46%");
  EXPECT_EQ(format_value(0.04312, "fraction"), "4.31%");
  EXPECT_EQ(format_value(1082741, "messages"), "1,082,741 messages");
  EXPECT_EQ(engineering(56864.5), "56.86e3");
  EXPECT_EQ(engineering(0.00012), "120e-6");
  EXPECT_EQ(engineering(0.4969), "0.4969");
  EXPECT_EQ(engineering(-1234567), "-1,234,567");
  EXPECT_EQ(format_value(nullptr, "ns"), "not reached");
  hs::runner::ResultCatalogue declared;
  declared.declare({{"per_iteration", "ns", "time"}, {"rows/*/share", "fraction", "share"}});
  std::ostringstream out;
  write_result_rows({{"per_iteration", 56864.0}, {"rows", Json::array({{{"share", 0.5}}})}}, out,
                    &declared);
  EXPECT_NE(out.str().find("per_iteration  56.864 us"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("50%"), std::string::npos) << out.str();
}

TEST(ReportRows, ScalarsFirstThenTablesAndSections) {
  const Json r = {{"zeta", 1},
                  {"alpha", {{"inner", 2}}},
                  {"rows", Json::array({{{"a", 1}, {"b", "x"}}, {{"a", 2}}})},
                  {"by_dir", {{"+x", {{"mean", 0.5}}}, {"-x", {{"mean", 0.25}}}}}};
  std::ostringstream out;
  write_result_rows(r, out);
  const std::string s = out.str();
  EXPECT_LT(s.find("zeta"), s.find("alpha")) << s;
  EXPECT_NE(s.find("  alpha\n    inner  2\n"), std::string::npos) << s;
  EXPECT_NE(s.find("#  a  b"), std::string::npos) << s;
  EXPECT_NE(s.find("1  2  -"), std::string::npos) << "a missing field shows as -\n" << s;
  EXPECT_NE(s.find("+x   0.5"), std::string::npos) << s;
  EXPECT_EQ(s.find('{'), std::string::npos) << s;
}

TEST(ReportRows, LongTablesAreCutAndSaySo) {
  Json rows = Json::array();
  for (int i = 0; i < 40; ++i) rows.push_back({{"i", i}});
  std::ostringstream out;
  write_result_rows({{"per_message", rows}}, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("... 24 more rows in the JSON report"), std::string::npos) << s;
  EXPECT_EQ(s.find(" 39\n"), std::string::npos) << s;
}
