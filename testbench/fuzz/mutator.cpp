#include "testbench/fuzz/mutator.h"

#include <fmt/format.h>
#include <cctype>

#include <nlohmann/json.hpp>

namespace hs::fuzz {

using Json = nlohmann::ordered_json;

namespace {

size_t pick(Rng& rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

bool chance(Rng& rng, double p) {
  return std::bernoulli_distribution(p)(rng);
}

template <class T>
const T& pick_from(Rng& rng, const std::vector<T>& v) {
  return v[pick(rng, v.size())];
}

std::string typo(std::string s, Rng& rng) {
  if (s.empty()) return "x";
  switch (pick(rng, 4)) {
    case 0:  // swap two neighbours
      if (s.size() > 1) {
        const size_t i = pick(rng, s.size() - 1);
        std::swap(s[i], s[i + 1]);
      }
      return s;
    case 1:  // drop one
      s.erase(pick(rng, s.size()), 1);
      return s;
    case 2:  // double one
      s.insert(pick(rng, s.size()), 1, s[pick(rng, s.size())]);
      return s;
    default:  // change the case of one
      s[pick(rng, s.size())] ^= 0x20;
      return s;
  }
}

// Every value in `j` (objects and arrays included) as a JSON pointer.
void collect_pointers(const Json& j, const Json::json_pointer& at,
                      std::vector<Json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) collect_pointers(v, at / k, out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) collect_pointers(j[i], at / i, out);
  }
}

// A key of an object somewhere in `j`, as (object pointer, key); false if there is none.
bool pick_key(Json& j, Rng& rng, Json::json_pointer& object, std::string& key) {
  std::vector<Json::json_pointer> all;
  collect_pointers(j, Json::json_pointer(), all);
  std::vector<Json::json_pointer> objects;
  for (const auto& p : all) {
    if (j.at(p).is_object() && !j.at(p).empty()) objects.push_back(p);
  }
  if (objects.empty()) return false;
  object = pick_from(rng, objects);
  const Json& o = j.at(object);
  auto it = o.begin();
  std::advance(it, static_cast<long>(pick(rng, o.size())));
  key = it.key();
  return true;
}

// One structural mutation; returns the text, since some (duplicate keys, deep nesting) have
// no JSON value form. `final` is set when the text must not be parsed again here: a value
// nested thousands deep would overflow this process's own stack.
std::string mutate_structure(Json j, Rng& rng, bool& final) {
  std::vector<Json::json_pointer> all;
  collect_pointers(j, Json::json_pointer(), all);
  const Json::json_pointer target = pick_from(rng, all);
  Json::json_pointer object;
  std::string key;
  switch (pick(rng, 9)) {
    case 0:
    case 1:  // an interesting value in place of any value
      j.at(target) = Json::parse(pick_from(rng, interesting_json_values()));
      return j.dump(2);
    case 2:  // a number pushed to an extreme of its own kind
      if (j.at(target).is_number()) {
        const double v = j.at(target).get<double>();
        const double factors[] = {-1, 0, 2, 1024, 1e9, 1e30, 0.5, 1e-9};
        j.at(target) = v * factors[pick(rng, 8)];
      } else {
        j.at(target) = Json::parse(pick_from(rng, interesting_json_values()));
      }
      return j.dump(2);
    case 3:  // a key removed
      if (pick_key(j, rng, object, key)) j.at(object).erase(key);
      return j.dump(2);
    case 4:  // a key misspelt
      if (pick_key(j, rng, object, key)) {
        Json v = j.at(object)[key];
        j.at(object).erase(key);
        j.at(object)[typo(key, rng)] = v;
      }
      return j.dump(2);
    case 5: {  // a value nested thousands deep
      const size_t depths[] = {3, 200, 5000, 20000, 200000};
      const std::string nested = deeply_nested(depths[pick(rng, 5)], chance(rng, 0.5));
      final = true;
      j.at(target) = "@@NESTED@@";
      std::string text = j.dump(2);
      text.replace(text.find("\"@@NESTED@@\""), 12, nested);
      return text;
    }
    case 6: {  // a key given twice with different values
      if (!pick_key(j, rng, object, key)) return j.dump(2);
      j.at(object)["@@DUP@@"] = 0;
      std::string text = j.dump(2);
      text.replace(text.find("\"@@DUP@@\": 0"), 12,
                   fmt::format("\"{}\": {}", key, pick_from(rng, interesting_json_values())));
      return text;
    }
    case 7: {  // a dotted key also given nested ("a.b": 1 beside "a": {"b": 2})
      if (!pick_key(j, rng, object, key) || key.find('.') == std::string::npos) {
        return j.dump(2);
      }
      const size_t dot = key.find('.');
      Json& o = j.at(object);
      const std::string head = key.substr(0, dot);
      if (o.contains(head) && !o[head].is_object()) return j.dump(2);
      o[head][key.substr(dot + 1)] = Json::parse(pick_from(rng, interesting_json_values()));
      return j.dump(2);
    }
    default:  // an unknown key added
      if (j.at(target).is_object()) {
        j.at(target)[typo("workload.unknown", rng)] = 1;
      } else if (j.at(target).is_array()) {
        j.at(target).push_back(Json::parse(pick_from(rng, interesting_json_values())));
      }
      return j.dump(2);
  }
}

}  // namespace

const std::vector<std::string>& interesting_json_values() {
  static const std::vector<std::string> values = {
      "0",
      "-1",
      "1",
      "2147483648",
      "4294967296",
      "9223372036854775807",
      "9223372036854775808",
      "18446744073709551615",
      "18446744073709551616",
      "1e30",
      "-1e30",
      "1e308",
      "0.5",
      "-0.0",
      "1e-300",
      "true",
      "false",
      "null",
      "[]",
      "{}",
      "[1, 2]",
      "{\"a\": 1}",
      "\"\"",
      "\"x\"",
      "\"1KiB\"",
      "\"16MiB\"",
      "\"1e30\"",
      "\"-4096\"",
      "\"0x10\"",
      "\"nan\"",
      "\"inf\"",
      "\"10 ns\"",
      "\"1.5GHz\"",
      "\"\\u00e9\\u6f22\\ud83d\\ude00\"",
      "\"" + std::string(5000, 'a') + "\"",
      "\"../../../../etc/passwd\"",
      "\"*\"",
  };
  return values;
}

const std::vector<std::string>& interesting_set_values() {
  static const std::vector<std::string> values = {
      "0",
      "-1",
      "1",
      "4294967296",
      "9223372036854775808",
      "1e30",
      "-1e30",
      "1e400",
      "18446744073709551616",
      "0.5",
      "nan",
      "inf",
      "-inf",
      "",
      "x",
      "true",
      "false",
      "1KiB",
      "4096",
      "1MiB",
      "64MiB",
      "1GiB",
      "1TiB",
      "16EiB",
      "10 ns",
      "1.5GHz",
      "2us",
      "1e9",
      "0x10",
      "[1,2]",
      "{}",
      "\"quoted\"",
      "é漢",
      std::string(5000, '9'),
      "1..2",
      // Torus link lists (torus.network.failed_links; link_faults.h), valid and not.
      "x1y0z0:+x",
      "x0y0z0:-y@5000,x1y0z0:+z",
      "x0y0z0:+x@",
  };
  return values;
}

std::string deeply_nested(size_t depth, bool objects) {
  std::string s;
  s.reserve(depth * 6 + 2);
  for (size_t i = 0; i < depth; ++i) s += objects ? "{\"a\":" : "[";
  s += "1";
  for (size_t i = 0; i < depth; ++i) s += objects ? "}" : "]";
  return s;
}

std::string mutate_bytes(const std::string& in, Rng& rng) {
  std::string s = in;
  const size_t n = 1 + pick(rng, 3);
  for (size_t k = 0; k < n; ++k) {
    if (s.empty()) {
      s = "{";
      continue;
    }
    const size_t i = pick(rng, s.size());
    const size_t len = 1 + pick(rng, std::min<size_t>(s.size() - i, 64));
    switch (pick(rng, 6)) {
      case 0:
        s[i] = static_cast<char>(s[i] ^ (1 << pick(rng, 8)));
        break;
      case 1:
        s.erase(i, len);
        break;
      case 2:
        s.insert(i, s.substr(i, len));
        break;
      case 3: {
        const char bytes[] = {'{', '}', '[', ']', '"', ',', ':', '\\', '\0', '\n', '-', 'e'};
        s.insert(s.begin() + static_cast<long>(i), bytes[pick(rng, sizeof bytes)]);
        break;
      }
      case 4:
        s.resize(i);
        break;
      default:
        s.insert(i, std::string(1 + pick(rng, 8), static_cast<char>('0' + pick(rng, 10))));
        break;
    }
  }
  return s;
}

std::string mutate_lines(const std::string& text, Rng& rng) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  const size_t n = 1 + pick(rng, 3);
  for (size_t k = 0; k < n && !lines.empty(); ++k) {
    const size_t i = pick(rng, lines.size());
    std::string& line = lines[i];
    switch (pick(rng, 5)) {
      case 0:
        lines.erase(lines.begin() + static_cast<long>(i));
        break;
      case 1:
        lines.push_back(line);  // a duplicate source
        break;
      case 2:
        std::swap(line, lines[pick(rng, lines.size())]);
        break;
      case 3: {  // one number replaced
        static const char* words[] = {"-1",  "8",   "128", "99999999999999999999", "x", "", "1e3",
                                      "0x1", "3.5", ",,"};
        const size_t at = line.find_first_of("0123456789");
        if (at == std::string::npos) break;
        const size_t end = line.find_first_not_of("0123456789", at);
        line.replace(at, (end == std::string::npos ? line.size() : end) - at,
                     words[pick(rng, std::size(words))]);
        break;
      }
      default:  // a separator dropped
        if (const size_t c = line.find_first_of(", "); c != std::string::npos) line.erase(c, 1);
        break;
    }
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  // A swap of equal lines changes nothing: bytes then do.
  return out == text || pick(rng, 4) == 0 ? mutate_bytes(out, rng) : out;
}

namespace {
// One word or number of a program, or a run of other characters: where a token mutation acts.
std::vector<std::pair<size_t, size_t>> token_spans(const std::string& s) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < s.size();) {
    size_t j = i + 1;
    if (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
    }
    if (!std::isspace(static_cast<unsigned char>(s[i]))) spans.emplace_back(i, j - i);
    i = j;
  }
  return spans;
}
}  // namespace

std::string mutate_program(const std::string& text, Rng& rng) {
  if (chance(rng, 0.3)) return mutate_lines(text, rng);
  // The language's own words and values that test its limits.
  static const std::vector<std::string> words = {"compute",
                                                 "send",
                                                 "recv",
                                                 "sendrecv",
                                                 "isend",
                                                 "irecv",
                                                 "wait",
                                                 "waitall",
                                                 "barrier",
                                                 "bcast",
                                                 "reduce",
                                                 "allreduce",
                                                 "allgather",
                                                 "alltoall",
                                                 "loop",
                                                 "if",
                                                 "else",
                                                 "let",
                                                 "ranks",
                                                 "all",
                                                 "even",
                                                 "odd",
                                                 "any",
                                                 "tag",
                                                 "op",
                                                 "type",
                                                 "as",
                                                 "rank",
                                                 "size",
                                                 "x",
                                                 "X",
                                                 "i",
                                                 "coord",
                                                 "min",
                                                 "{",
                                                 "}",
                                                 "(",
                                                 ")",
                                                 "..",
                                                 ",",
                                                 ";",
                                                 "=",
                                                 "\n",
                                                 "0",
                                                 "-1",
                                                 "1",
                                                 "7",
                                                 "65536",
                                                 "16777217",
                                                 "1000001",
                                                 "32768",
                                                 "99999999999999999999",
                                                 "size - 1",
                                                 "size + 1",
                                                 "1 / 0",
                                                 "rank % 0",
                                                 "9223372036854775807 * 2",
                                                 "- - -",
                                                 "(((((",
                                                 ")))"};
  std::string s = text;
  const size_t n = 1 + pick(rng, 3);
  for (size_t k = 0; k < n; ++k) {
    const auto spans = token_spans(s);
    if (spans.empty()) {
      s += pick_from(rng, words);
      continue;
    }
    const auto [at, len] = spans[pick(rng, spans.size())];
    std::string w = pick_from(rng, words);
    if (w == "\\n") w = "\n";
    switch (pick(rng, 4)) {
      case 0:  // replaced
        s.replace(at, len, w);
        break;
      case 1:  // deleted
        s.erase(at, len);
        break;
      case 2:  // a word inserted before it
        s.insert(at, w + " ");
        break;
      default:  // duplicated
        s.insert(at, s.substr(at, len) + " ");
        break;
    }
  }
  return chance(rng, 0.2) ? mutate_bytes(s, rng) : s;
}

std::string mutate_json_text(const std::string& text, Rng& rng) {
  const Json parsed = Json::parse(text, nullptr, false);
  if (parsed.is_discarded()) return mutate_bytes(text, rng);
  std::string out = text;
  const size_t n = 1 + pick(rng, 3);
  bool final = false;
  for (size_t k = 0; k < n && !final; ++k) {
    const Json j = Json::parse(out, nullptr, false);
    if (j.is_discarded()) break;
    out = mutate_structure(j, rng, final);
  }
  if (chance(rng, 0.25)) out = mutate_bytes(out, rng);
  return out;
}

std::string mutate_name(const std::string& name, Rng& rng) {
  switch (pick(rng, 6)) {
    case 0:
      return typo(name, rng);
    case 1: {  // part of it replaced by a wildcard
      const size_t i = pick(rng, name.size() + 1);
      return name.substr(0, i) + "*" + name.substr(std::min(name.size(), i + pick(rng, 6)));
    }
    case 2:
      return std::string(1 + pick(rng, 12), '*') + "Z";
    case 3:
      return "";
    case 4:
      return name + "." + name;
    default:
      return name;
  }
}

std::string mutate_set_value(const std::string& current, Rng& rng) {
  switch (pick(rng, 3)) {
    case 0:
      return pick_from(rng, interesting_set_values());
    case 1:
      return mutate_bytes(current, rng);
    default:
      return current;
  }
}

}  // namespace hs::fuzz
