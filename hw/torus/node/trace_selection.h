// Which torus nodes appear in the waveform (parameter torus.trace_nodes): their cores'
// states and, with RTL counters, their counter banks' ports and registers. A 512-node
// machine's every signal would bury the few a reader follows.
//
// Syntax: node coordinates "X,Y,Z" separated by ';', each coordinate a number, a range "A-B"
// (both ends included) or "*" (the whole dimension); "all" is every node, "none" (or nothing)
// is none. "0,0,0;1,0,0" is two nodes, "*,0,0" the x row through the origin.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "hw/torus/network/torus_shape.h"

namespace hs::torus {

class TraceSelection {
 public:
  // Throws InputError naming `param`, the value and what is wrong with it (a coordinate
  // outside the torus, a malformed node).
  TraceSelection(const std::string& param, const std::string& text, const TorusShape& shape);
  bool contains(const Coord& c) const;

 private:
  struct Span {
    int lo, hi;
  };
  std::vector<std::array<Span, 3>> boxes_;
};

// A node's module name, from its coordinates ("x1y2z3"): also its parameter path
// (torus.x1y2z3.dma.clock) and where its signals sit in the waveform.
std::string node_name(const Coord& c);

}  // namespace hs::torus
