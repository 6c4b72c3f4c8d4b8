// Where things sit on the Element Interconnect Bus: its twelve elements in their order round
// the rings, and the path a transfer takes between two of them.
//
// Going round the rings (clockwise) the elements are PPE, SPE1, SPE3, SPE5, SPE7, IOIF1,
// IOIF0, SPE6, SPE4, SPE2, SPE0, MIC, and back to the PPE. Ring segment i joins position i to
// position i + 1 (mod 12); a clockwise transfer from position p crosses segments p, p+1, ...,
// a counter-clockwise one segments p-1, p-2, ... A transfer goes the short way round and
// never more than halfway (at most 6 hops); at exactly 6 hops both directions are as short.
#pragma once
#include <array>
#include <cstdint>

namespace hs::cell {

constexpr int kEibElements = 12;

// Element = its position round the rings.
enum class Element : uint8_t {
  PPE = 0,
  SPE1,
  SPE3,
  SPE5,
  SPE7,
  IOIF1,
  IOIF0,
  SPE6,
  SPE4,
  SPE2,
  SPE0,
  MIC
};

inline constexpr int position(Element e) {
  return static_cast<int>(e);
}

// The element of SPE n (the hardware's SPE numbering, which the model's SPE indices follow).
inline constexpr Element spe_element(int spe) {
  constexpr std::array<Element, 8> kSpe = {Element::SPE0, Element::SPE1, Element::SPE2,
                                           Element::SPE3, Element::SPE4, Element::SPE5,
                                           Element::SPE6, Element::SPE7};
  return kSpe[static_cast<size_t>(spe)];
}

inline const char* to_string(Element e) {
  constexpr std::array<const char*, kEibElements> kNames = {"ppe",  "spe1",  "spe3",  "spe5",
                                                            "spe7", "ioif1", "ioif0", "spe6",
                                                            "spe4", "spe2",  "spe0",  "mic"};
  return kNames[static_cast<size_t>(position(e))];
}

// A transfer's way round: hops, direction, and the ring segments it holds (bit i: segment i).
struct EibPath {
  int hops = 0;
  bool clockwise = true;
  uint16_t segments = 0;
};

inline constexpr int clockwise_hops(Element from, Element to) {
  return (position(to) - position(from) + kEibElements) % kEibElements;
}

inline constexpr uint16_t segment_mask(Element from, int hops, bool clockwise) {
  uint16_t m = 0;
  for (int h = 0; h < hops; ++h) {
    const int seg = clockwise ? position(from) + h : position(from) - 1 - h;
    m = static_cast<uint16_t>(m | 1u << ((seg + kEibElements) % kEibElements));
  }
  return m;
}

// The path in one direction (the caller decides which directions are allowed).
inline constexpr EibPath path(Element from, Element to, bool clockwise) {
  const int cw = clockwise_hops(from, to);
  const int hops = clockwise ? cw : (kEibElements - cw) % kEibElements;
  return EibPath{hops, clockwise, segment_mask(from, hops, clockwise)};
}

// The short way round: clockwise below 6 hops, counter-clockwise above; at 6 the data arbiter
// may use either (both_ways).
inline constexpr EibPath short_path(Element from, Element to) {
  return path(from, to, clockwise_hops(from, to) <= kEibElements / 2);
}
inline constexpr bool both_ways(Element from, Element to) {
  return clockwise_hops(from, to) == kEibElements / 2;
}

}  // namespace hs::cell
