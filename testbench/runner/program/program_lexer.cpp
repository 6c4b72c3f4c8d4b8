#include "testbench/runner/program/program_lexer.h"

#include <fmt/format.h>
#include <cctype>

namespace hs::runner::program {

using fw::program::Pos;
using fw::program::ProgramError;

namespace {
// Longest first, so "<=" is not read as "<" then "=".
const char* const kPuncts[] = {"..", "==", "!=", "<=", ">=", "&&", "||", "{", "}", "(", ")",
                               ",",  ";",  "+",  "-",  "*",  "/",  "%",  "<", ">", "!", "="};

std::string shown(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isprint(u) ? fmt::format("'{}'", c) : fmt::format("byte 0x{:02x}", u);
}
}  // namespace

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> out;
  int line = 1, col = 1, parens = 0;
  size_t i = 0;
  const auto advance = [&](size_t n) {
    i += n;
    col += static_cast<int>(n);
  };
  while (i < text.size()) {
    const char c = text[i];
    const Pos pos{line, col};
    if (c == '\n') {
      if (parens == 0) out.push_back({Token::Newline, "\n", 0, pos});
      ++i;
      ++line;
      col = 1;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      advance(1);
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') advance(1);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      int64_t v = 0;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text[j] - '0', &v)) {
          throw ProgramError(pos, "number too large (at most 9223372036854775807)");
        }
        ++j;
      }
      if (j < text.size() &&
          (std::isalpha(static_cast<unsigned char>(text[j])) || text[j] == '_')) {
        throw ProgramError(pos, fmt::format("'{}' is not a number", text.substr(i, j + 1 - i)));
      }
      out.push_back({Token::Number, text.substr(i, j - i), v, pos});
      advance(j - i);
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) {
        ++j;
      }
      out.push_back({Token::Name, text.substr(i, j - i), 0, pos});
      advance(j - i);
    } else {
      const char* match = nullptr;
      for (const char* p : kPuncts) {
        if (text.compare(i, std::char_traits<char>::length(p), p) == 0) {
          match = p;
          break;
        }
      }
      if (!match) throw ProgramError(pos, fmt::format("unexpected character {}", shown(c)));
      const std::string p = match;
      if (p == "(") ++parens;
      if (p == ")" && parens > 0) --parens;
      out.push_back({Token::Punct, p, 0, pos});
      advance(p.size());
    }
  }
  out.push_back({Token::End, "", 0, {line, col}});
  return out;
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Token::Newline:
      return "the end of the line";
    case Token::End:
      return "the end of the file";
    default:
      return "'" + t.text + "'";
  }
}

}  // namespace hs::runner::program
