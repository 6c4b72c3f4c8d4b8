// The box partitioner refuses a grid that does not fit the run, naming the parameter and the
// numbers: boxes against partitions (every axis may ask for up to 99999 cuts, so their product
// is counted past int), and more cuts across an axis than it has planes.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "hw/torus/network/partition.h"
#include "tlm/common/errors.h"

using namespace hs::torus;

namespace {

// The refusal `grid` gets for `parts` partitions of a 4x4x4 torus ("" if it was accepted).
std::string refusal(std::array<int, 3> grid, int parts) {
  const TorusShape shape(4, 4, 4, true);
  try {
    partitioners().get("box").cut(shape, parts, -1, grid);
  } catch (const hs::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ParallelPartition, AGridOfTheWrongNumberOfBoxesIsRefused) {
  EXPECT_EQ(refusal({2, 2, 2}, 4), "torus.partition.grid = 2x2x2: 8 boxes for 4 partitions");
  EXPECT_EQ(refusal({99999, 99999, 99999}, 2),
            "torus.partition.grid = 99999x99999x99999: 999970000299999 boxes for 2 partitions");
}

TEST(ParallelPartition, AGridWithMoreCutsThanPlanesIsRefused) {
  EXPECT_EQ(refusal({8, 1, 1}, 8),
            "torus.partition.grid = 8x1x1: 8 cuts across x but it has 4 planes");
  EXPECT_EQ(refusal({2, 2, 1}, 4), "");
}
