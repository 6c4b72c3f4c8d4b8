// GoogleTest entry point for SystemC: libsystemc owns main() and calls sc_main().
//
// A SystemC kernel elaborates once per process, so when more than one test is selected each
// runs in a forked child (CTest already runs one test per process; this keeps running the
// binary by hand working the same way).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fnmatch.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

namespace {

bool any_glob(const std::string& patterns, const std::string& name) {
  std::stringstream ss(patterns);
  std::string p;
  while (std::getline(ss, p, ':')) {
    if (!p.empty() && fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

// GoogleTest's filter syntax: POSITIVE[-NEGATIVE], each a ':'-separated list of globs.
bool matches_filter(const std::string& filter, const std::string& name) {
  auto dash = filter.find('-');
  std::string pos = filter.substr(0, dash);
  if (pos.empty()) pos = "*";
  if (!any_glob(pos, name)) return false;
  return dash == std::string::npos || !any_glob(filter.substr(dash + 1), name);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  std::vector<std::string> selected;
  auto* unit = ::testing::UnitTest::GetInstance();
  const std::string filter = GTEST_FLAG_GET(filter);
  for (int i = 0; i < unit->total_test_suite_count(); ++i) {
    const auto* suite = unit->GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      const auto* t = suite->GetTestInfo(j);
      std::string full = std::string(suite->name()) + "." + t->name();
      if (matches_filter(filter, full)) {
        selected.push_back(full);
      }
    }
  }
  if (selected.size() <= 1 || GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();

  std::vector<std::string> failed;
  for (const auto& name : selected) {
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
      GTEST_FLAG_SET(filter, name);
      std::_Exit(RUN_ALL_TESTS());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed.push_back(name);
  }
  std::printf("\n%zu passed, %zu failed\n", selected.size() - failed.size(), failed.size());
  for (const auto& f : failed) std::printf("FAILED: %s\n", f.c_str());
  return failed.empty() ? 0 : 1;
}
