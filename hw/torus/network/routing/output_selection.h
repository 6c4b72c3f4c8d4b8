// Output selection: which of the outputs an adaptive packet could take right now it takes.
// Chosen by name (torus.network.selection). The router offers only options the packet may
// use at once (link free, enough tokens on the VC); dynamic VCs are always offered before the
// escape VC, which the router takes only when no dynamic option has tokens (so the selection
// rule never pushes a packet onto the escape VC).
//
//  most_tokens   (Blue Gene/P) the direction and dynamic VC with the most free downstream
//                tokens: join the shortest queue; ties go to the lowest direction, then VC.
//  random        uniformly random among the options (each router draws from its own stream,
//                seeded from the run's seed and its coordinates).
//  least_recent  the direction whose link was granted longest ago at this router, spreading
//                load across the minimal directions; ties as most_tokens.
#pragma once
#include <cstdint>
#include "tlm/common/random_stream.h"

#include "hw/torus/network/routing/policy_list.h"

namespace hs::torus {

struct OutputOption {
  int8_t dir, vc;
  int16_t tokens;         // free downstream tokens on that VC, in chunks
  uint64_t last_used_ps;  // when the router last granted that link
};

class OutputSelection {
 public:
  virtual ~OutputSelection() = default;
  virtual const char* name() const = 0;
  virtual const char* summary() const = 0;
  // Index into options[0..n), n >= 1.
  virtual int pick(const OutputOption* options, int n, RandomStream& rng) const = 0;
};

const PolicyList<OutputSelection>& output_selections();

}  // namespace hs::torus
