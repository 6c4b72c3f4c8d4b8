#include "tlm/params/json_input.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "tlm/common/errors.h"

namespace hs {

namespace {

using Json = nlohmann::json;

// A SAX consumer that keeps only what the checks need: for each open object or array, its
// keys seen so far or its element count, and the path to it for messages. The library's
// SAX parser is iterative, so no input depth reaches the stack before the limit stops it.
class InputChecker : public nlohmann::json_sax<Json> {
 public:
  explicit InputChecker(const std::string& where) : where_(where) {}

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Level& l = levels_.back();
    if (!l.keys.insert(k).second) {
      throw InputError(fmt::format(
          "{}: key '{}' appears twice in {}", where_, k,
          levels_.size() == 1 ? "the top-level object" : "'" + path(levels_.size() - 1) + "'"));
    }
    l.key = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // the real parse reports it, with line and column
  }

 private:
  struct Level {
    bool object;
    std::set<std::string> keys;
    std::string key;     // object: the key whose value comes next
    size_t element = 0;  // array: the index of the next element
  };

  // The path to the value being read (params.node0.pcie0, stats[2]), or with `levels` fewer
  // than all, to the object or array that holds it.
  std::string path(size_t levels) const {
    std::string p;
    for (size_t i = 0; i < levels; ++i) {
      const Level& l = levels_[i];
      p += l.object ? (p.empty() ? "" : ".") + l.key : fmt::format("[{}]", l.element);
    }
    return p;
  }
  bool value() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().element;
    return true;
  }
  bool open(bool object) {
    if (levels_.size() >= static_cast<size_t>(kMaxJsonDepth)) {
      throw InputError(fmt::format("{}: '{}' nests objects and arrays deeper than {} levels",
                                   where_, path(levels_.size()), kMaxJsonDepth));
    }
    levels_.push_back(Level{object, {}, {}, 0});
    return true;
  }
  bool close() {
    levels_.pop_back();
    return value();
  }

  const std::string& where_;
  std::vector<Level> levels_;
};

}  // namespace

void check_json_input(const std::string& text, const std::string& where) {
  InputChecker checker(where);
  Json::sax_parse(text, &checker);
}

}  // namespace hs
