// GTKWave's side files: a save file (.gtkw) that opens a waveform with its signals listed,
// grouped by component, and translate filter files that show an enumeration's values by name.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hs {

// The names of an integer signal's values ("core_state": 0 idle, 1 compute, ...).
struct WaveEnum {
  std::string name;  // names the translate file: FILE.<name>.txt
  std::vector<std::pair<int64_t, std::string>> values;
};

struct SavedSignal {
  std::string name;   // full name as GTKWave lists it ("torus.x0y0z0.core0.state[31:0]")
  std::string group;  // the component it belongs to
  int width = 1;
  bool real = false;
  bool hex = false;    // shown in hexadecimal (buses, addresses), else in decimal (counts)
  std::string filter;  // the translate file showing its values by name, or empty
};

// A translate filter file: one "VALUE NAME" line per value, VALUE in decimal, as the save
// file displays the signals it filters.
std::string translate_file_text(const WaveEnum& e);

// A save file opening `dump` (absolute path), with `signals` in groups in order of first
// appearance. `save` is the save file's own absolute path: GTKWave finds the waveform
// relative to it if both move together.
std::string gtkwave_save_text(const std::string& dump, const std::string& save,
                              const std::vector<SavedSignal>& signals);

}  // namespace hs
