// Tokens of the program language (docs/programs.md): numbers, names, punctuation and
// newlines (which end statements; inside parentheses they are spaces). `#` starts a comment
// to the end of the line. Every token keeps its line and column (1-based, in bytes).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/apps/mpi_program.h"

namespace hs::runner::program {

struct Token {
  enum Kind { Number, Name, Punct, Newline, End } kind = End;
  std::string text;
  int64_t value = 0;  // Number
  fw::program::Pos pos;
};

// Throws fw::program::ProgramError at the first character no token starts with, or a
// number too large for 64 bits.
std::vector<Token> tokenize(const std::string& text);

// How a token reads in an error message: 'word', a newline, the end of the file.
std::string describe(const Token& t);

}  // namespace hs::runner::program
