// The message-passing layer's pieces on their own: node modes and rank mappings (orders and
// mapping files with their file:line errors), the DMA engine's partition among a node's
// ranks, and MPI matching (wildcards, the unexpected queue, the non-overtaking rule).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "sw/apps/mpi_motifs.h"
#include "sw/dcmf/dma_share.h"
#include "sw/mpi/coll_algorithms.h"
#include "sw/mpi/matching.h"
#include "sw/mpi/rank_map.h"

using namespace hs::fw::mpi;
using hs::torus::Coord;
using hs::torus::TorusShape;

namespace {

TorusShape shape(int x, int y, int z) {
  return TorusShape(x, y, z, true);
}

std::string error_of(const std::string& text, int rpn = 1) {
  try {
    RankMap::from_text(shape(2, 2, 2), rpn, text, "map.txt");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

Envelope msg(int src, int tag, uint32_t seq, int ctx = kPointToPoint) {
  Envelope e;
  e.src = src;
  e.tag = tag;
  e.seq = seq;
  e.ctx = ctx;
  e.bytes = 8;
  return e;
}

}  // namespace

TEST(NodeModes, RanksPerNodeAndNames) {
  EXPECT_EQ(ranks_per_node(parse_node_mode("smp")), 1);
  EXPECT_EQ(ranks_per_node(parse_node_mode("dual")), 2);
  EXPECT_EQ(ranks_per_node(parse_node_mode("vn")), 4);
  EXPECT_STREQ(node_mode_name(NodeMode::Vn), "vn");
  EXPECT_THROW(parse_node_mode("quad"), std::invalid_argument);
}

TEST(RankMapping, XyztVariesXFastestAndTSlowest) {
  const auto s = shape(4, 4, 2);
  const RankMap m = RankMap::by_order(s, 4, "XYZT");
  ASSERT_EQ(m.size(), 128);
  EXPECT_EQ(m.place(1).node, s.node(Coord{{1, 0, 0}}));
  EXPECT_EQ(m.place(4).node, s.node(Coord{{0, 1, 0}}));
  EXPECT_EQ(m.place(16).node, s.node(Coord{{0, 0, 1}}));
  EXPECT_EQ(m.place(32).node, 0);
  EXPECT_EQ(m.place(32).t, 1);
}

TEST(RankMapping, TxyzFillsANodeBeforeTheNext) {
  const auto s = shape(2, 2, 2);
  const RankMap m = RankMap::by_order(s, 2, "TXYZ");
  EXPECT_EQ(m.place(0).node, 0);
  EXPECT_EQ(m.place(1).node, 0);
  EXPECT_EQ(m.place(1).t, 1);
  EXPECT_EQ(m.place(2).node, s.node(Coord{{1, 0, 0}}));
  EXPECT_EQ(m.place(2).t, 0);
}

TEST(RankMapping, EveryOrderIsABijectionOntoTheMachinesSlots) {
  std::string order = "TXYZ";
  int orders = 0;
  for (const auto& s : {shape(2, 2, 2), shape(4, 4, 2)}) {
    for (int rpn : {1, 2, 4}) {
      do {
        const RankMap m = RankMap::by_order(s, rpn, order);
        ASSERT_EQ(m.size(), s.nodes() * rpn);
        std::set<int> endpoints;
        for (int r = 0; r < m.size(); ++r) {
          endpoints.insert(m.endpoint(r));
          EXPECT_EQ(m.rank_of_endpoint(m.endpoint(r)), r) << order;
        }
        EXPECT_EQ(static_cast<int>(endpoints.size()), m.size()) << order;
        ++orders;
      } while (std::next_permutation(order.begin(), order.end()));
    }
  }
  EXPECT_EQ(orders, 2 * 3 * 24);
}

TEST(RankMapping, BadOrdersAreRefused) {
  for (const char* bad : {"XYZ", "XXYZ", "XYZW", "xyzt", ""}) {
    EXPECT_THROW(RankMap::by_order(shape(2, 2, 2), 1, bad), std::invalid_argument) << bad;
  }
}

TEST(MappingFile, ListsRanksInOrderWithCommentsAndBlankLines) {
  std::string text = "# reversed\n";
  for (int n = 7; n >= 0; --n) {
    const Coord c = shape(2, 2, 2).coord(n);
    text += std::to_string(c.v[0]) + " " + std::to_string(c.v[1]) + " " + std::to_string(c.v[2]) +
            " 0   # rank " + std::to_string(7 - n) + "\n\n";
  }
  const RankMap m = RankMap::from_text(shape(2, 2, 2), 1, text, "map.txt");
  for (int r = 0; r < 8; ++r) EXPECT_EQ(m.place(r).node, 7 - r);
}

TEST(MappingFile, EveryMistakeIsReportedWithFileAndLine) {
  EXPECT_EQ(error_of("0 0 0\n"), "map.txt:1: expected 4 numbers \"x y z t\", found 3");
  EXPECT_EQ(error_of("# c\n0 0 a 0\n"), "map.txt:2: z 'a' is not a number");
  EXPECT_EQ(error_of("0 0 2 0\n"), "map.txt:1: z = 2 is outside 0..1");
  EXPECT_EQ(error_of("0 0 0 1\n"), "map.txt:1: t = 1 is outside 0..0");
  EXPECT_EQ(error_of("1 0 0 0\n\n1 0 0 0\n"), "map.txt:3: 1 0 0 0 is already taken by line 1");
  EXPECT_EQ(error_of("0 0 0 0\n"),
            "map.txt: lists 1 ranks; the machine runs 8 (8 nodes, 1 a node)");
  // Every mistake, not just the first.
  EXPECT_EQ(error_of("0 0 0\n9 0 0 0\n"),
            "map.txt:1: expected 4 numbers \"x y z t\", found 3\nmap.txt:2: x = 9 is outside 0..1");
}

TEST(MappingFile, AMissingFileIsNamed) {
  EXPECT_THROW(RankMap::from_file(shape(2, 2, 2), 1, "/nonexistent/map.txt"),
               std::invalid_argument);
}

TEST(DmaPartition, VnModeGivesEachRankItsOwnFifosAndCounterGroup) {
  std::set<int> fifos, groups, rec;
  for (int l = 0; l < 4; ++l) {
    const auto s = hs::fw::dcmf::dma_share(l, 4, 16, 4, 4);
    EXPECT_EQ(s.injection_fifos, 4);
    EXPECT_EQ(s.groups, 1);
    for (int f = s.injection_fifo; f < s.injection_fifo + s.injection_fifos; ++f) {
      EXPECT_TRUE(fifos.insert(f).second);
    }
    EXPECT_TRUE(groups.insert(s.first_group).second);
    EXPECT_TRUE(rec.insert(s.reception_fifo).second);
  }
  EXPECT_EQ(fifos.size(), 16u);
  const auto dual = hs::fw::dcmf::dma_share(1, 2, 16, 4, 4);
  EXPECT_EQ(dual.injection_fifo, 8);
  EXPECT_EQ(dual.first_group, 2);
  EXPECT_EQ(dual.groups, 2);
}

TEST(DmaPartition, TooSmallAnEngineIsRefused) {
  EXPECT_THROW(hs::fw::dcmf::dma_share(0, 4, 8, 4, 4), std::invalid_argument);
  EXPECT_THROW(hs::fw::dcmf::dma_share(0, 4, 16, 2, 4), std::invalid_argument);
  EXPECT_THROW(hs::fw::dcmf::dma_share(0, 4, 16, 4, 2), std::invalid_argument);
}

TEST(Matching, AnArrivalTakesTheOldestPostedReceiveThatAcceptsIt) {
  Matcher m;
  EXPECT_FALSE(m.post(1, 2, kPointToPoint, 5));
  EXPECT_FALSE(m.post(2, kAnySource, kPointToPoint, kAnyTag));
  EXPECT_FALSE(m.post(3, 2, kPointToPoint, 5));
  auto out = m.arrive(msg(2, 5, 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].recv, 1);
  out = m.arrive(msg(2, 5, 1));
  EXPECT_EQ(out[0].recv, 2) << "the wildcard was posted before receive 3";
  out = m.arrive(msg(2, 5, 2));
  EXPECT_EQ(out[0].recv, 3);
  EXPECT_EQ(m.posted(), 0u);
}

TEST(Matching, UnexpectedMessagesWaitAndAreTakenOldestFirst) {
  Matcher m;
  EXPECT_EQ(m.arrive(msg(1, 7, 0))[0].recv, -1);
  EXPECT_EQ(m.arrive(msg(3, 7, 0))[0].recv, -1);
  EXPECT_EQ(m.arrive(msg(1, 8, 1))[0].recv, -1);
  EXPECT_EQ(m.unexpected(), 3u);
  auto e = m.post(1, kAnySource, kPointToPoint, 7);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->src, 1);
  e = m.post(2, 1, kPointToPoint, kAnyTag);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, 8);
  e = m.post(3, kAnySource, kPointToPoint, kAnyTag);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->src, 3);
  EXPECT_EQ(m.unexpected(), 0u);
}

TEST(Matching, AMessageThatOvertookAnEarlierOneWaitsForIt) {
  Matcher m;
  EXPECT_FALSE(m.post(1, 0, kPointToPoint, 4));
  EXPECT_TRUE(m.arrive(msg(0, 4, 1)).empty()) << "sequence 1 arrived before 0";
  EXPECT_EQ(m.held(), 1u);
  const auto out = m.arrive(msg(0, 4, 0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].msg.seq, 0u);
  EXPECT_EQ(out[0].recv, 1);
  EXPECT_EQ(out[1].msg.seq, 1u);
  EXPECT_EQ(out[1].recv, -1);
  EXPECT_EQ(m.held(), 0u);
}

TEST(Matching, SequenceNumbersWrapAround) {
  Matcher m;
  for (uint32_t i = 0; i < kSeqModulus + 3; ++i) {
    ASSERT_EQ(m.arrive(msg(0, 1, i % kSeqModulus)).size(), 1u) << i;
  }
  EXPECT_EQ(m.unexpected(), kSeqModulus + 3);
}

TEST(Matching, CollectiveAndPointToPointContextsNeverMatchEachOther) {
  Matcher m;
  EXPECT_FALSE(m.post(1, kAnySource, kPointToPoint, kAnyTag));
  EXPECT_EQ(m.arrive(msg(1, 0, 0, kCollective))[0].recv, -1);
  EXPECT_FALSE(m.post(2, 1, kCollective, 1));
  EXPECT_TRUE(m.post(3, 1, kCollective, 0));
}

TEST(Envelope, PacksIntoTheLayersTwentyEightBits) {
  const uint32_t w = pack_envelope(true, kCollective, kTagUpperBound, kSeqModulus - 1);
  EXPECT_LE(w, 0x0FFFFFFFu);
  const Envelope e = unpack_envelope(3, w, 1);
  EXPECT_TRUE(e.empty);
  EXPECT_EQ(e.bytes, 0u);
  EXPECT_EQ(e.ctx, kCollective);
  EXPECT_EQ(e.tag, kTagUpperBound);
  EXPECT_EQ(e.seq, kSeqModulus - 1);
  EXPECT_EQ(e.src, 3);
}

TEST(CollectiveAlgorithms, UnknownNamesAndRankCountsAreExplained) {
  std::string why;
  EXPECT_TRUE(find_algorithm(Collective::Allreduce, "ring", 6, why));
  EXPECT_FALSE(find_algorithm(Collective::Allreduce, "butterfly", 8, why));
  EXPECT_EQ(why, "allreduce algorithm 'butterfly' (recursive_doubling, ring, binomial)");
  EXPECT_FALSE(find_algorithm(Collective::Alltoall, "pairwise", 6, why));
  EXPECT_EQ(why,
            "alltoall algorithm 'pairwise' needs a power-of-two number of ranks; the job has 6");
  for (auto c : kAllCollectives) {
    EXPECT_GE(algorithms(c).size(), 2u) << collective_name(c);
  }
}

TEST(Halo3dGrid, BalancedFactorsLargestFirst) {
  using hs::fw::motifs::grid_dims;
  EXPECT_EQ(grid_dims(512), (std::array<int, 3>{8, 8, 8}));
  EXPECT_EQ(grid_dims(1024), (std::array<int, 3>{16, 8, 8}));
  EXPECT_EQ(grid_dims(2048), (std::array<int, 3>{16, 16, 8}));
  EXPECT_EQ(grid_dims(24), (std::array<int, 3>{4, 3, 2}));
  EXPECT_EQ(grid_dims(6), (std::array<int, 3>{3, 2, 1}));
  EXPECT_EQ(grid_dims(7), (std::array<int, 3>{7, 1, 1}));
  EXPECT_EQ(grid_dims(1), (std::array<int, 3>{1, 1, 1}));
}
