// JSON written by users (scenario files, sweep files, --set values) is checked before it is
// parsed into a value: nesting is bounded (deep nesting would exhaust the stack of the code
// that walks or prints the value) and no object may name a key twice (the JSON library keeps
// the last one, silently dropping the other).
#pragma once
#include <string>

namespace hs {

// Deeper than any sensible input; shallow enough for every recursive walk of a value.
inline constexpr int kMaxJsonDepth = 64;

// Throws InputError "<where>: ..." naming the field at fault if `text` nests objects and
// arrays deeper than kMaxJsonDepth or repeats a key in one object. Syntax errors are left to
// the parser that follows (which reports their line and column): the check stops at them.
void check_json_input(const std::string& text, const std::string& where);

}  // namespace hs
