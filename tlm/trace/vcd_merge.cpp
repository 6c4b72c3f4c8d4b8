#include "tlm/trace/vcd_merge.h"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>

namespace hs {

namespace {

// Whitespace-separated words of a file, read in large blocks.
class Words {
 public:
  explicit Words(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
    if (!file_) fail(std::strerror(errno));
  }
  ~Words() {
    if (file_) std::fclose(file_);
  }
  Words(const Words&) = delete;
  Words& operator=(const Words&) = delete;

  bool next(std::string& word) {
    word.clear();
    for (;;) {
      if (pos_ == len_ && !refill()) return !word.empty();
      const char c = buf_[pos_++];
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        if (!word.empty()) return true;
      } else {
        word += c;
      }
    }
  }
  // The words up to the closing $end, joined by single spaces.
  std::string until_end() {
    std::string out, w;
    while (next(w) && w != "$end") out += (out.empty() ? "" : " ") + w;
    return out;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(fmt::format("cannot read '{}': {}", path_, why));
  }

 private:
  bool refill() {
    len_ = std::fread(buf_.get(), 1, kSize, file_);
    pos_ = 0;
    if (len_ == 0 && std::ferror(file_)) fail(std::strerror(errno));
    return len_ > 0;
  }
  static constexpr size_t kSize = 1 << 16;
  std::string path_;
  std::FILE* file_;
  std::unique_ptr<char[]> buf_ = std::make_unique<char[]>(kSize);
  size_t pos_ = 0, len_ = 0;
};

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot; (dot = s.find('.', start)) != std::string::npos; start = dot + 1) {
    if (dot > start) parts.push_back(s.substr(start, dot - start));
  }
  if (start < s.size()) parts.push_back(s.substr(start));
  return parts;
}

// Picoseconds per unit of a $timescale ("1ps", "1 ns", "100 ps").
uint64_t timescale_ps(const std::string& text, const Words& in) {
  std::string digits, unit;
  for (char c : text) {
    if (c == ' ') continue;
    (std::isdigit(static_cast<unsigned char>(c)) && unit.empty() ? digits : unit) += c;
  }
  static const std::map<std::string, uint64_t> units = {
      {"ps", 1}, {"ns", 1000}, {"us", 1000000}, {"ms", 1000000000}, {"s", 1000000000000}};
  const auto u = units.find(unit);
  if (digits.empty() || u == units.end()) {
    in.fail(fmt::format("timescale '{}' is not a whole number of picoseconds", text));
  }
  if (digits.size() > 6) in.fail(fmt::format("timescale '{}' is too large", text));
  return std::stoull(digits) * u->second;
}

struct Var {
  std::string type, ref, range;
  int width;
  size_t signal = 0;  // the merge's signal (an alias: the one whose code it shares)
};

struct Scope {
  std::string name;
  std::vector<std::unique_ptr<Scope>> children;
  std::map<std::string, Scope*> by_name;
  std::vector<Var> vars;

  Scope* child(const std::string& n) {
    auto it = by_name.find(n);
    if (it != by_name.end()) return it->second;
    children.push_back(std::make_unique<Scope>());
    children.back()->name = n;
    return by_name[n] = children.back().get();
  }
};

// Identifier codes of the merged file: printable ASCII '!'..'~', shortest first.
std::string code_of(size_t index) {
  std::string code;
  do {
    code += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index > 0);
  return code;
}

constexpr size_t kNoSource = SIZE_MAX;

// What the partition sources share (see the header), by signal index of the merge.
struct Partitions {
  std::unordered_map<std::string, size_t> by_name;  // partition signals by full name
  std::vector<size_t> owner;                        // the source whose values count
};

// One input: its codes mapped to the merged file's signal indices, and its value changes one
// time step at a time.
class Reader {
 public:
  // `shared`: the partition sources' common state (null: every declaration is a signal).
  Reader(const VcdSource& src, size_t index, Partitions* shared)
      : src_(src), index_(index), in_(src.path), shared_(src.partition ? shared : nullptr) {}
  bool partition() const { return shared_ != nullptr; }

  // Reads the declarations into `root`, adding to `signals`.
  void header(Scope& root, std::vector<VcdSignal>& signals, std::vector<std::string>& firsts) {
    std::vector<size_t> pushed;  // scopes each $scope opened (a dotted name opens several)
    std::vector<Scope*> path = {&root};
    std::vector<std::string> names;
    std::string w;
    while (in_.next(w)) {
      if (w == "$enddefinitions") {
        in_.until_end();
        return;
      }
      if (w == "$timescale") {
        scale_ = timescale_ps(in_.until_end(), in_);
      } else if (w == "$scope") {
        std::string type, name;
        in_.next(type);
        in_.next(name);
        in_.until_end();
        auto parts = split_dots(name);
        if (pushed.empty() && !src_.drop_top_scope.empty() && name == src_.drop_top_scope) {
          parts.clear();
        }
        for (const auto& p : parts) {
          path.push_back(path.back()->child(p));
          names.push_back(p);
        }
        pushed.push_back(parts.size());
      } else if (w == "$upscope") {
        in_.until_end();
        if (pushed.empty()) in_.fail("$upscope without $scope");
        for (size_t i = 0; i < pushed.back(); ++i) {
          path.pop_back();
          names.pop_back();
        }
        pushed.pop_back();
      } else if (w == "$var") {
        declare(in_.until_end(), path, names, static_cast<int>(pushed.size()), signals, firsts);
      } else if (w[0] == '$') {
        in_.until_end();  // $date, $version, $comment
      } else {
        in_.fail(fmt::format("'{}' before $enddefinitions", w));
      }
    }
    in_.fail("no $enddefinitions");
  }

  // Reads the next time step: its time (in ps) and changes (in the merged codes).
  bool step(std::vector<std::string>& firsts, std::vector<bool>& seen,
            std::vector<VcdSignal*>& sig) {
    changes.clear();
    std::string w, id;
    while (in_.next(w)) {
      if (w[0] == '#') {
        const uint64_t was = mark_;
        mark_ = time_of(w) * scale_;
        if (!changes.empty()) {
          time = was;
          return true;
        }
      } else if (w[0] == '$') {
        if (w == "$comment") in_.until_end();  // $dumpvars, $dumpall, $end carry no values
      } else {
        const bool vector = w[0] == 'b' || w[0] == 'B' || w[0] == 'r' || w[0] == 'R';
        std::string value = vector ? w : w.substr(0, 1);
        if (vector) {
          if (!in_.next(id)) in_.fail("a value without an identifier at the end");
        } else {
          id = w.substr(1);
        }
        const auto it = codes_.find(id);
        if (it == codes_.end()) in_.fail(fmt::format("value for undeclared identifier '{}'", id));
        if (shared_ && shared_->owner[it->second.front()] != index_) {
          continue;  // another partition's to give
        }
        for (size_t s : it->second) {
          if (!seen[s]) {
            seen[s] = true;
            firsts[s] = value;
          } else if (!sig[s]->changes && firsts[s] != value) {
            sig[s]->changes = true;
          }
        }
        changes.emplace_back(it->second.front(), vector ? value + " " : value);
      }
    }
    time = mark_;
    return !changes.empty();
  }

  uint64_t time = 0;
  std::vector<std::pair<size_t, std::string>> changes;  // (signal, the line without its code)

 private:
  void declare(const std::string& text, const std::vector<Scope*>& path,
               const std::vector<std::string>& names, int depth, std::vector<VcdSignal>& signals,
               std::vector<std::string>& firsts) {
    // type width code reference [range]
    std::vector<std::string> f;
    size_t start = 0;
    for (size_t sp; (sp = text.find(' ', start)) != std::string::npos; start = sp + 1) {
      f.push_back(text.substr(start, sp - start));
    }
    f.push_back(text.substr(start));
    if (f.size() < 4) in_.fail(fmt::format("malformed $var '{}'", text));
    Var v{f[0], f[3], f.size() > 4 ? f[4] : "", std::atoi(f[1].c_str())};
    if (v.width < 1) in_.fail(fmt::format("malformed $var '{}'", text));
    // A vector without a range gets one, so GTKWave names every vector alike.
    if (v.range.empty() && v.width > 1 && v.type != "real") {
      v.range = fmt::format("[{}:0]", v.width - 1);
    }
    // A dotted reference nests like a dotted scope.
    auto parts = split_dots(v.ref);
    if (parts.empty()) in_.fail(fmt::format("malformed $var '{}'", text));
    Scope* scope = path.back();
    std::vector<std::string> scope_names = names;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      scope = scope->child(parts[i]);
      scope_names.push_back(parts[i]);
    }
    v.ref = parts.back();
    VcdSignal s;
    for (const auto& n : scope_names) s.scope += (s.scope.empty() ? "" : ".") + n;
    s.name = (s.scope.empty() ? "" : s.scope + ".") + v.ref + v.range;
    s.type = v.type;
    s.width = v.width;
    s.source = shared_ ? 0 : index_;
    s.depth = depth;
    auto& indices = codes_[f[2]];
    if (shared_) {
      // Another partition declared it first: one signal, whoever gives its values.
      const auto known = shared_->by_name.find(s.name);
      if (known != shared_->by_name.end()) {
        if (indices.empty()) indices.push_back(known->second);
        return;
      }
      shared_->by_name[s.name] = signals.size();
    }
    // Codes shared within a file (aliases) stay shared; codes never cross files.
    const size_t index = signals.size();
    v.signal = indices.empty() ? index : indices.front();
    indices.push_back(index);
    signals.push_back(s);
    firsts.emplace_back();
    scope->vars.push_back(std::move(v));
  }

  uint64_t time_of(const std::string& mark) const {
    uint64_t t = 0;
    if (mark.size() < 2 || mark.size() > 20) in_.fail(fmt::format("bad time '{}'", mark));
    for (size_t i = 1; i < mark.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(mark[i]))) {
        in_.fail(fmt::format("bad time '{}'", mark));
      }
      t = t * 10 + static_cast<uint64_t>(mark[i] - '0');
    }
    return t;
  }

  const VcdSource& src_;
  size_t index_;
  Words in_;
  Partitions* shared_;
  uint64_t scale_ = 1, mark_ = 0;
  std::unordered_map<std::string, std::vector<size_t>> codes_;
};

class Output {
 public:
  explicit Output(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
    if (!file_) fail(std::strerror(errno));
  }
  ~Output() {
    if (file_) std::fclose(file_);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void put(const std::string& s) {
    buf_ += s;
    if (buf_.size() >= (1u << 20)) flush();
  }
  void close() {
    flush();
    const int rc = std::fclose(file_);
    file_ = nullptr;
    if (rc != 0) fail(std::strerror(errno));
  }

 private:
  void flush() {
    if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) {
      fail(errno ? std::strerror(errno) : "a write failed");
    }
    buf_.clear();
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error(fmt::format("cannot write '{}': {}", path_, why));
  }
  std::string path_;
  std::FILE* file_;
  std::string buf_;
};

// One time step's changes in the order of the merged declarations (each signal at most once
// a step), whichever file and partition they came from.
void put_in_order(Output& out, std::vector<std::pair<size_t, std::string>>& lines,
                  const std::vector<size_t>& place) {
  std::stable_sort(lines.begin(), lines.end(), [&place](const auto& a, const auto& b) {
    return place[a.first] < place[b.first];
  });
  for (const auto& l : lines) {
    out.put(l.second);
    out.put(code_of(place[l.first]));
    out.put("\n");
  }
  lines.clear();
}

// Orders every scope's children by name, as SystemC's writer does, so that the tree does not
// depend on which file declared a scope first (a partition declares only what it built), and
// numbers the signals in the order the header then lists them: `place[signal]`, whose code is
// code_of(place).
void number_signals(Scope& s, std::vector<size_t>& place, size_t& next) {
  for (const auto& v : s.vars) {
    if (place[v.signal] == SIZE_MAX) place[v.signal] = next++;
  }
  std::sort(s.children.begin(), s.children.end(),
            [](const auto& a, const auto& b) { return a->name < b->name; });
  for (auto& c : s.children) number_signals(*c, place, next);
}

void write_scope(Output& out, const Scope& s, const std::vector<size_t>& place) {
  for (const auto& v : s.vars) {
    out.put(fmt::format("$var {} {} {} {}{}{} $end\n", v.type, v.width, code_of(place[v.signal]),
                        v.ref, v.range.empty() ? "" : " ", v.range));
  }
  for (const auto& c : s.children) {
    out.put(fmt::format("$scope module {} $end\n", c->name));
    write_scope(out, *c, place);
    out.put("$upscope $end\n");
  }
}

// Gives each partition signal to the partition source in which its values change (see the
// header): a first pass over those files.
void find_owners(const std::vector<VcdSource>& sources, Partitions& shared) {
  std::vector<size_t> changer(shared.owner.size(), kNoSource);
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i].partition) continue;
    Reader scan(sources[i], i, nullptr);
    Scope root;
    std::vector<VcdSignal> signals;
    std::vector<std::string> firsts;
    scan.header(root, signals, firsts);
    std::vector<bool> seen(signals.size());
    std::vector<VcdSignal*> sig;
    for (auto& s : signals) sig.push_back(&s);
    while (scan.step(firsts, seen, sig)) {
    }
    for (const auto& s : signals) {
      if (!s.changes) continue;
      const size_t g = shared.by_name.at(s.name);
      if (changer[g] != kNoSource) {
        throw std::runtime_error(
            fmt::format("signal {} changes in two partitions ({} and {})", s.name, changer[g], i));
      }
      changer[g] = i;
    }
  }
  for (size_t g = 0; g < changer.size(); ++g) {
    if (changer[g] != kNoSource) shared.owner[g] = changer[g];
  }
}

}  // namespace

std::vector<VcdSignal> merge_vcd(const std::vector<VcdSource>& sources,
                                 const std::string& out_path) {
  std::vector<std::unique_ptr<Reader>> readers;
  Scope root;
  std::vector<VcdSignal> signals;
  std::vector<std::string> firsts;
  Partitions shared;
  size_t partitions = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    readers.push_back(std::make_unique<Reader>(sources[i], i, &shared));
    readers.back()->header(root, signals, firsts);
    partitions += sources[i].partition ? 1 : 0;
    shared.owner.resize(signals.size(), sources[i].partition ? i : kNoSource);
  }
  if (partitions > 1) find_owners(sources, shared);
  Output out(out_path);
  out.put("$version hybridsim $end\n$timescale 1ps $end\n");
  std::vector<size_t> place(signals.size(), SIZE_MAX);
  size_t next = 0;
  number_signals(root, place, next);
  for (size_t& p : place) {
    if (p == SIZE_MAX) p = next++;  // an alias: listed after the others, never coded
  }
  write_scope(out, root, place);
  out.put("$enddefinitions $end\n");

  std::vector<bool> seen(signals.size());
  std::vector<VcdSignal*> sig;
  for (auto& s : signals) sig.push_back(&s);
  std::vector<Reader*> active;
  for (auto& r : readers) {
    if (r->step(firsts, seen, sig)) active.push_back(r.get());
  }
  uint64_t last = 0;
  while (!active.empty()) {
    uint64_t t = UINT64_MAX;
    for (const Reader* r : active) t = std::min(t, r->time);
    // A writer that went back in time (none should) is kept at the merged file's present.
    const uint64_t at = std::max(t, last);
    out.put(fmt::format("#{}\n", at));
    last = at;
    std::vector<Reader*> still;
    std::vector<std::pair<size_t, std::string>> lines;
    for (Reader* r : active) {
      bool more = true;
      while (more && r->time == t) {
        for (auto& c : r->changes) lines.emplace_back(c.first, std::move(c.second));
        more = r->step(firsts, seen, sig);
      }
      if (more) still.push_back(r);
    }
    put_in_order(out, lines, place);
    active = std::move(still);
  }
  out.close();
  std::vector<VcdSignal> listed(signals.size());  // in the header's order
  for (size_t i = 0; i < signals.size(); ++i) listed[place[i]] = std::move(signals[i]);
  return listed;
}

}  // namespace hs
