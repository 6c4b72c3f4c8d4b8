// Quantities with units as users write and read them: "4KiB", "200ns", "1.8GHz". One table of
// suffixes per declared unit serves both directions, so whatever the parameter listing prints
// can be given back to --set unchanged.
#pragma once
#include <optional>
#include <string>

namespace hs {

// `text` as a number of `unit` ("4KiB" for unit "B" is 4096); nullopt if it is not a number,
// or has a suffix this unit does not know.
std::optional<double> parse_quantity(const std::string& text, const std::string& unit);

// `v` with the suffix of `unit` that shows it exactly in the fewest characters
// ("17179869184" B is "16GiB", 1.8e9 Hz is "1.8GHz", 1023 B stays "1023B"), written without a space
// so that it reads back as it is; a unit without suffixes ("packets") follows the number after a
// space. Integers print every digit.
std::string format_quantity(double v, const std::string& unit, bool integer = false);
// True if `unit` has suffixes (B, ns, Hz, B/s...).
bool has_suffixes(const std::string& unit);

}  // namespace hs
