// The program language's parser (grammar in docs/programs.md): text to
// fw::program::Program, every variable resolved to a slot, every statement's shape checked,
// and constant subexpressions evaluated (a division by zero or an overflow among constants is
// a mistake of the text, whatever the rank). Nesting of blocks and expressions is bounded, so
// no input can exhaust the stack.
#pragma once
#include <string>

#include "sw/apps/mpi_program.h"

namespace hs::runner::program {

// Bounds that keep the walk's recursion small on a firmware thread's stack.
constexpr int kMaxBlockNesting = 16;  // blocks in blocks
constexpr int kMaxExprDepth = 32;     // operators and calls in operators and calls

// Throws InputError "FILE:LINE:COL: message" at the first mistake.
fw::program::Program parse_program(const std::string& text, const std::string& file);

}  // namespace hs::runner::program
