// Mutations of the inputs users give hybridsim (scenario files, sweep files, --set values),
// for the fuzzer. Each mutation is a pure function of the input and the random generator,
// so a case is reproduced from its seed alone.
//
// Structural mutations work on the parsed JSON (a value replaced by an extreme or wrongly
// typed one, a key deleted, misspelt or added, a value nested thousands deep, a parameter
// given both flat and nested, a key duplicated); byte mutations work on the text (flips,
// deletions, duplications, insertions, truncation), which also reaches the JSON parser's
// error paths.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace hs::fuzz {

using Rng = std::mt19937_64;

// Values that break assumptions: extremes, wrong types, units, huge and empty strings.
// As JSON text, so every one can stand for any value in a file.
const std::vector<std::string>& interesting_json_values();

// The same for --set NAME=VALUE (no JSON quoting needed).
const std::vector<std::string>& interesting_set_values();

// A JSON text with 1 to 3 structural mutations when it parses, and sometimes byte mutations
// on top (always when it does not parse).
std::string mutate_json_text(const std::string& text, Rng& rng);

// Byte-level mutations only.
std::string mutate_bytes(const std::string& text, Rng& rng);

// A line-oriented text file (permutation files) with 1 to 3 line mutations (a line deleted,
// duplicated or swapped with another, a number replaced by an extreme or a word, a separator
// dropped), and sometimes byte mutations on top.
std::string mutate_lines(const std::string& text, Rng& rng);

// A message-passing program (docs/programs.md) with 1 to 3 token mutations (a word or number
// replaced by one of the language's words or a limit-testing value, deleted, duplicated, or a
// word inserted), or line mutations, and sometimes byte mutations on top.
std::string mutate_program(const std::string& text, Rng& rng);

// A parameter name, misspelt, wildcarded or emptied.
std::string mutate_name(const std::string& name, Rng& rng);

// A value for `--set`: an interesting one, a mutated form of `current`, or `current` itself.
std::string mutate_set_value(const std::string& current, Rng& rng);

// A JSON value nested `depth` deep (arrays or objects), built without recursion.
std::string deeply_nested(size_t depth, bool objects);

}  // namespace hs::fuzz
