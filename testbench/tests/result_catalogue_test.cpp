// Results declared like statistics: paths with wildcards, every reported leaf covered, nearest
// names for misspellings.
#include <gtest/gtest.h>

#include "testbench/runner/result_catalogue.h"
#include "tlm/common/errors.h"

using hs::runner::ResultCatalogue;
using Json = nlohmann::json;

TEST(ResultCatalogue, WildcardsStandForOneKeyOrIndex) {
  ResultCatalogue c;
  c.declare({{"latency_ns", "ns", "a"},
             {"by_direction/*/mean", "fraction", "b"},
             {"pairs/*/host/sent", "packets", "c"}});
  EXPECT_EQ(c.find("latency_ns")->unit, "ns");
  EXPECT_EQ(c.find("by_direction/+x/mean")->unit, "fraction");
  EXPECT_EQ(c.find("pairs/3/host/sent")->unit, "packets");
  EXPECT_EQ(c.find("by_direction/+x"), nullptr);
  EXPECT_EQ(c.find("by_direction/+x/mean/more"), nullptr);
  EXPECT_EQ(c.closest("latency"), "latency_ns");
  EXPECT_THROW(c.declare({{"latency_ns", "ns", "twice"}}), hs::ModelError);
}

TEST(ResultCatalogue, EveryLeafMustBeDeclared) {
  ResultCatalogue c;
  c.declare({{"a", "", ""}, {"list", "ns", ""}, {"rows/*/x", "", ""}, {"window/*", "", ""}});
  const Json ok = {{"a", 1},
                   {"list", {1, 2, 3}},
                   {"rows", Json::array({{{"x", 1}}, {{"x", 2}}})},
                   {"window", {{"start", 0}, {"reached", "whole"}}}};
  EXPECT_TRUE(c.undeclared(ok).empty());
  EXPECT_TRUE(c.undeclared({{"rows", Json::array()}}).empty()) << "no rows this time";
  EXPECT_EQ(c.undeclared({{"other", Json::array()}}), std::vector<std::string>{"other"});
  const Json bad = {{"a", 1}, {"b", nullptr}, {"rows", Json::array({{{"x", 1}, {"y", 2}}})}};
  EXPECT_EQ(c.undeclared(bad), (std::vector<std::string>{"b", "rows/0/y"}));
}
