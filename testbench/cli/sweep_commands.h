// The sweep-related subcommands of `hybridsim`: sweep, sweep-task, collect and plot.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>

namespace hs::cli {

class SweepCommands {
 public:
  explicit SweepCommands(CLI::App& app);
  ~SweepCommands();
  // The exit code if one of these subcommands was chosen, else nullopt. `self` is the
  // hybridsim executable that runs each point.
  std::optional<int> dispatch(const std::string& self);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace hs::cli
