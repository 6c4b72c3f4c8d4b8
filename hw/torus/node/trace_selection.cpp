#include "hw/torus/node/trace_selection.h"

#include <fmt/format.h>
#include <cctype>

#include "tlm/common/errors.h"

namespace hs::torus {

namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + 1) {
    parts.push_back(trim(s.substr(start, at - start)));
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

bool is_number(const std::string& s) {
  if (s.empty() || s.size() > 6) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

TraceSelection::TraceSelection(const std::string& param, const std::string& text,
                               const TorusShape& shape) {
  auto refuse = [&](const std::string& why) {
    throw InputError(fmt::format("parameter '{}' = '{}': {}", param, text, why));
  };
  const std::string all = trim(text);
  if (all.empty() || all == "none") return;
  if (all == "all") {
    boxes_.push_back({{{0, shape.size(0) - 1}, {0, shape.size(1) - 1}, {0, shape.size(2) - 1}}});
    return;
  }
  static const char* kAxis[] = {"x", "y", "z"};
  const std::string syntax =
      "write nodes as x,y,z separated by ';', each coordinate a number, a range such as 0-3, "
      "or *";
  for (const std::string& node : split(all, ';')) {
    if (node.empty()) refuse("an empty node (a stray ';'): " + syntax);
    const auto coords = split(node, ',');
    if (coords.size() != 3) refuse(fmt::format("'{}' is not a node: {}", node, syntax));
    std::array<Span, 3> box{};
    for (int d = 0; d < 3; ++d) {
      const std::string& c = coords[static_cast<size_t>(d)];
      const int size = shape.size(d);
      Span span{0, size - 1};
      if (c != "*") {
        const auto dash = c.find('-');
        const std::string lo = trim(c.substr(0, dash));
        const std::string hi = dash == std::string::npos ? lo : trim(c.substr(dash + 1));
        if (!is_number(lo) || !is_number(hi)) {
          refuse(fmt::format("'{}' in '{}' is not a coordinate: {}", c, node, syntax));
        }
        span = {std::stoi(lo), std::stoi(hi)};
        if (span.lo > span.hi) {
          refuse(fmt::format("the range {} = {} in '{}' runs backwards", kAxis[d], c, node));
        }
        if (span.hi >= size) {
          refuse(fmt::format("{} = {} in '{}' is outside the {}x{}x{} torus ({} is 0..{})",
                             kAxis[d], c, node, shape.size(0), shape.size(1), shape.size(2),
                             kAxis[d], size - 1));
        }
      }
      box[static_cast<size_t>(d)] = span;
    }
    boxes_.push_back(box);
  }
}

bool TraceSelection::contains(const Coord& c) const {
  for (const auto& box : boxes_) {
    bool in = true;
    for (size_t d = 0; d < 3; ++d) in = in && c.v[d] >= box[d].lo && c.v[d] <= box[d].hi;
    if (in) return true;
  }
  return false;
}

std::string node_name(const Coord& c) {
  return fmt::format("x{}y{}z{}", c.v[0], c.v[1], c.v[2]);
}

}  // namespace hs::torus
