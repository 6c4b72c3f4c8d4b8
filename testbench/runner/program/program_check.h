// The program language's check before the run: the program walked as every rank of the job
// (fw::program::RankWalk, the walk the ranks themselves run), recording each rank's messages
// and collective calls instead of sending them. Refused, each with "FILE:LINE:COL: message":
// - any mistake of one rank's walk: a destination, source, root, size, tag or loop count out of
//   range, a division by zero or an overflow, an unknown or never-waited request, buffers that
//   do not fit the rank's memory, more statements over all ranks than kCheckedStatements;
// - collectives that differ between ranks (kind, root, size, operator or type, or how many);
// - point-to-point messages that cannot all be matched: per (source, destination, tag) the
//   sends and receives must match in number (wildcard receives take any message they accept:
//   a maximum matching decides), and without wildcards each message must fit its receive.
// Ordering deadlocks (two ranks each receiving before sending, say) are not found here; the
// run reports ranks that never finish.
#pragma once
#include <cstdint>
#include <string>

#include "sw/apps/mpi_program.h"

namespace hs::runner::program {

constexpr uint64_t kCheckedStatements = 4'000'000;

// What the check found, for reports.
struct ProgramCensus {
  uint64_t statements = 0;  // run over all ranks
  uint64_t messages = 0, bytes = 0, collectives = 0;
};

// Throws InputError at the first mistake.
ProgramCensus check_program(const fw::program::Program& p, const fw::program::Layout& layout,
                            const std::string& file);

}  // namespace hs::runner::program
