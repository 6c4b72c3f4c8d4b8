#include "sw/mpi/rank_map.h"

#include <fmt/format.h>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hs::fw::mpi {

NodeMode parse_node_mode(const std::string& name) {
  if (name == "smp") return NodeMode::Smp;
  if (name == "dual") return NodeMode::Dual;
  if (name == "vn") return NodeMode::Vn;
  throw std::invalid_argument("node mode '" + name + "' (smp, dual, vn)");
}

const char* node_mode_name(NodeMode m) {
  switch (m) {
    case NodeMode::Smp:
      return "smp";
    case NodeMode::Dual:
      return "dual";
    case NodeMode::Vn:
      return "vn";
  }
  return "?";
}

int ranks_per_node(NodeMode m) {
  return m == NodeMode::Smp ? 1 : m == NodeMode::Dual ? 2 : 4;
}

bool valid_order(const std::string& order) {
  std::string s = order;
  std::sort(s.begin(), s.end());
  return s == "TXYZ";
}

RankMap::RankMap(int ranks_per_node, std::vector<RankPlace> places, size_t slots)
    : ranks_per_node_(ranks_per_node), places_(std::move(places)), rank_of_(slots, -1) {
  for (size_t r = 0; r < places_.size(); ++r) {
    rank_of_[static_cast<size_t>(places_[r].node * ranks_per_node_ + places_[r].t)] =
        static_cast<int>(r);
  }
}

RankMap RankMap::by_order(const hs::torus::TorusShape& shape, int ranks_per_node,
                          const std::string& order, int ranks) {
  if (!valid_order(order)) {
    throw std::invalid_argument("mapping '" + order +
                                "': a permutation of XYZT (the first letter varies fastest) "
                                "or a mapping file");
  }
  const int extent[4] = {shape.size(0), shape.size(1), shape.size(2), ranks_per_node};
  std::vector<RankPlace> places;
  const int slots = shape.nodes() * ranks_per_node;
  if (ranks > slots) {
    throw std::invalid_argument(
        fmt::format("{} ranks do not fit the machine's {} ({} nodes, {} a "
                    "node)",
                    ranks, slots, shape.nodes(), ranks_per_node));
  }
  const int n = ranks > 0 ? ranks : slots;
  places.reserve(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    int coord[4] = {0, 0, 0, 0};  // x, y, z, t
    int left = r;
    for (char letter : order) {
      const int d = letter == 'T' ? 3 : letter - 'X';
      coord[d] = left % extent[d];
      left /= extent[d];
    }
    places.push_back({shape.node(hs::torus::Coord{{coord[0], coord[1], coord[2]}}), coord[3]});
  }
  return RankMap(ranks_per_node, std::move(places), static_cast<size_t>(slots));
}

RankMap RankMap::from_text(const hs::torus::TorusShape& shape, int ranks_per_node,
                           const std::string& text, const std::string& file) {
  std::vector<std::string> errors;
  std::vector<RankPlace> places;
  std::vector<int> line_of_slot(static_cast<size_t>(shape.nodes() * ranks_per_node), 0);
  const int extent[4] = {shape.size(0), shape.size(1), shape.size(2), ranks_per_node};
  const char* names[4] = {"x", "y", "z", "t"};
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (words.empty()) continue;
    const std::string at = fmt::format("{}:{}: ", file, number);
    if (words.size() != 4) {
      errors.push_back(at + fmt::format("expected 4 numbers \"x y z t\", found {}", words.size()));
      continue;
    }
    int c[4];
    bool ok = true;
    for (int i = 0; i < 4 && ok; ++i) {
      size_t used = 0;
      try {
        c[i] = std::stoi(words[static_cast<size_t>(i)], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != words[static_cast<size_t>(i)].size()) {
        errors.push_back(
            at + fmt::format("{} '{}' is not a number", names[i], words[static_cast<size_t>(i)]));
        ok = false;
      } else if (c[i] < 0 || c[i] >= extent[i]) {
        errors.push_back(at +
                         fmt::format("{} = {} is outside 0..{}", names[i], c[i], extent[i] - 1));
        ok = false;
      }
    }
    if (!ok) continue;
    const int node = shape.node(hs::torus::Coord{{c[0], c[1], c[2]}});
    int& owner = line_of_slot[static_cast<size_t>(node * ranks_per_node + c[3])];
    if (owner != 0) {
      errors.push_back(at + fmt::format("{} {} {} {} is already taken by line {}", c[0], c[1], c[2],
                                        c[3], owner));
      continue;
    }
    owner = number;
    places.push_back({node, c[3]});
  }
  if (errors.empty() && places.size() != line_of_slot.size()) {
    errors.push_back(fmt::format("{}: lists {} ranks; the machine runs {} ({} nodes, {} a node)",
                                 file, places.size(), line_of_slot.size(), shape.nodes(),
                                 ranks_per_node));
  }
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += (all.empty() ? "" : "\n") + e;
    throw std::invalid_argument(all);
  }
  return RankMap(ranks_per_node, std::move(places), line_of_slot.size());
}

RankMap RankMap::from_file(const hs::torus::TorusShape& shape, int ranks_per_node,
                           const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument(path + ": cannot open the mapping file");
  std::ostringstream text;
  text << f.rdbuf();
  return from_text(shape, ranks_per_node, text.str(), path);
}

}  // namespace hs::fw::mpi
