#include "testbench/runner/program/program_file.h"

#include <fmt/format.h>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "testbench/runner/program/program_parser.h"
#include "tlm/common/errors.h"

namespace hs::runner::program {

namespace fs = std::filesystem;

namespace {
// The scenario file in a source "FILE:LINE", or "".
std::string scenario_of(const std::string& source) {
  const size_t colon = source.rfind(':');
  if (colon == std::string::npos || colon + 1 == source.size() || source.rfind("--set", 0) == 0) {
    return "";
  }
  for (size_t i = colon + 1; i < source.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(source[i]))) return "";
  }
  return source.substr(0, colon);
}
}  // namespace

std::string resolve_program_path(const std::string& path, const std::string& source) {
  std::error_code ec;
  const std::string scenario = scenario_of(source);
  if (path.empty() || fs::path(path).is_absolute() || scenario.empty()) return path;
  const fs::path beside = fs::path(scenario).parent_path() / path;
  return fs::is_regular_file(beside, ec) ? beside.string() : path;
}

fw::program::Program load_program(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw InputError(fmt::format("{}: a directory, not a program file", path));
  }
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open the program file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_program(text.str(), path);
}

}  // namespace hs::runner::program
