// The bytes a parallel run's processes send each other (tlm/parallel/bytes.h): what a writer
// puts, a reader takes back in order, empty strings and vectors included; a message that ends
// early, or whose length is broken, throws rather than reading or allocating past it.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/parallel/bytes.h"

using namespace hs;

TEST(ParallelBytes, ValuesStringsAndVectorsComeBackInOrder) {
  ByteWriter w;
  w.put<uint8_t>(7);
  w.put<double>(2.5);  // after one byte: the reader copies, it never reads in place
  w.put_string("partition");
  w.put_vector(std::vector<uint64_t>{1, uint64_t{1} << 63});
  w.put<int32_t>(-3);
  const Bytes b = w.take();
  ByteReader r(b);
  EXPECT_EQ(r.get<uint8_t>(), 7);
  EXPECT_EQ(r.get<double>(), 2.5);
  EXPECT_EQ(r.get_string(), "partition");
  EXPECT_EQ(r.get_vector<uint64_t>(), (std::vector<uint64_t>{1, uint64_t{1} << 63}));
  EXPECT_EQ(r.get<int32_t>(), -3);
  EXPECT_TRUE(r.done());
}

// A partition with nothing to say sends empty vectors and strings (an empty vector's data()
// is null, which memcpy may not be given: UBSan's build reports it).
TEST(ParallelBytes, EmptyStringsAndVectorsComeBackEmpty) {
  ByteWriter w;
  w.put_vector(std::vector<uint32_t>{});
  w.put_string("");
  w.put_vector(std::vector<double>{});
  const Bytes b = w.take();
  ByteReader r(b);
  EXPECT_TRUE(r.get_vector<uint32_t>().empty());
  EXPECT_EQ(r.get_string(), "");
  EXPECT_TRUE(r.get_vector<double>().empty());
  EXPECT_TRUE(r.done());

  ByteReader nothing(Bytes{});
  EXPECT_TRUE(nothing.done());
  EXPECT_THROW(nothing.get<uint8_t>(), std::runtime_error);
}

TEST(ParallelBytes, AMessageThatEndsEarlyThrows) {
  ByteWriter w;
  w.put_vector(std::vector<uint32_t>{1, 2, 3});
  Bytes b = w.take();
  b.pop_back();
  ByteReader r(b);
  EXPECT_THROW(r.get_vector<uint32_t>(), std::runtime_error);

  ByteWriter s;
  s.put_string("cut");
  Bytes c = s.take();
  c.pop_back();
  ByteReader rs(c);
  EXPECT_THROW(rs.get_string(), std::runtime_error);
}

// A broken length throws before the reader allocates for it (not std::bad_alloc, nor the
// AddressSanitizer's report of an allocation larger than it supports).
TEST(ParallelBytes, ABrokenVectorLengthThrowsBeforeAllocating) {
  for (const uint64_t n : {uint64_t{1} << 60, ~uint64_t{0}, uint64_t{3}}) {
    ByteWriter w;
    w.put<uint64_t>(n);
    w.put<uint64_t>(0);  // 8 bytes follow: room for two elements, not three
    const Bytes b = w.take();
    ByteReader r(b);
    EXPECT_THROW(r.get_vector<uint32_t>(), std::runtime_error) << n;
  }
}
