#include "tlm/trace/gtkwave_save.h"

#include <fmt/format.h>
#include <map>

namespace hs {

namespace {
// GTKWave's trace flags (its save-file format writes them in hexadecimal after '@').
constexpr uint32_t kHex = 1u << 1, kDec = 1u << 2, kBin = 1u << 3, kRightJustify = 1u << 5,
                   kBlank = 1u << 9, kTranslated = 1u << 13, kReal = 1u << 18,
                   kGroupBegin = 1u << 23, kGroupEnd = 1u << 24;
}  // namespace

std::string translate_file_text(const WaveEnum& e) {
  std::string out = fmt::format("# {}: values shown by name\n", e.name);
  for (const auto& [value, name] : e.values) out += fmt::format("{} {}\n", value, name);
  return out;
}

std::string gtkwave_save_text(const std::string& dump, const std::string& save,
                              const std::vector<SavedSignal>& signals) {
  std::string out = "[*] written by hybridsim: gtkwave " + save + "\n";
  out += fmt::format("[dumpfile] \"{}\"\n[savefile] \"{}\"\n[timestart] 0\n", dump, save);
  out += "[sst_width] 280\n[signals_width] 320\n[sst_expanded] 1\n";
  // Groups keep the order in which their first signal came.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const SavedSignal*>> groups;
  for (const auto& s : signals) {
    auto& g = groups[s.group];
    if (g.empty()) order.push_back(s.group);
    g.push_back(&s);
  }
  // Translate files are numbered in order of first use.
  std::map<std::string, int> filters;
  uint32_t flags = 0;
  auto set_flags = [&](uint32_t f) {
    if (f != flags) out += fmt::format("@{:x}\n", f);
    flags = f;
  };
  for (const auto& name : order) {
    set_flags(kGroupBegin | kBlank);
    out += "-" + name + "\n";
    for (const SavedSignal* s : groups[name]) {
      if (!s->filter.empty()) {
        auto [it, fresh] = filters.emplace(s->filter, static_cast<int>(filters.size()) + 1);
        (void)fresh;
        set_flags(kTranslated | kDec | kRightJustify);
        out += fmt::format("^{} {}\n", it->second, s->filter);
      } else if (s->real) {
        set_flags(kReal | kRightJustify);
      } else {
        set_flags((s->width == 1 ? kBin : s->hex ? kHex : kDec) | kRightJustify);
      }
      out += s->name + "\n";
    }
    set_flags(kGroupEnd | kBlank);
    out += "-" + name + "\n";
  }
  return out;
}

}  // namespace hs
