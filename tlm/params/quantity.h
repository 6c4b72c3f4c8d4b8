// Quantities with units as users write and read them: "4KiB", "200ns", "1.8GHz". One table of
// suffixes per declared unit serves both directions, so whatever the parameter listing prints
// can be given back to --set unchanged.
//
// Rules:
//  - A bare number is in the unit `hybridsim params` lists beside the parameter (ns for times,
//    Hz for clocks, B for sizes). A suffix says otherwise.
//  - Sizes take binary (KiB, MiB, GiB, TiB) and decimal (kB or KB, MB, GB, TB) prefixes.
//  - A suffix matches exactly first, then ignoring case ("1.5ghz" is 1.5GHz); a suffix that
//    matches two units ignoring case is refused rather than guessed.
//  - A bare time below 1 ns or a bare clock below 1 kHz is almost always a unit forgotten
//    ("stop_at=0.001" meaning a millisecond is 1 ps): bare_number_doubt() says so, and the
//    parameter registry refuses it, asking for the unit.
#pragma once
#include <optional>
#include <string>

namespace hs {

// `text` as a number of `unit` ("4KiB" for unit "B" is 4096); nullopt if it is not a number,
// or has a suffix this unit does not know (quantity_error() says which).
std::optional<double> parse_quantity(const std::string& text, const std::string& unit);

// Why parse_quantity(text, unit) failed, for an error message: "'x' is not a number" or
// "'PB' is not a unit of B (B, KiB, ...)". Empty if it did not fail.
std::string quantity_error(const std::string& text, const std::string& unit);

// True if `text` is a number with no unit written after it.
bool is_bare_number(const std::string& text);

// For a bare number `v` given to a parameter in `unit`: why it is probably a forgotten unit
// (see the rules above), worded to follow "parameter 'NAME' ", or empty.
std::string bare_number_doubt(double v, const std::string& unit);

// `v` with the suffix of `unit` that shows it exactly in the fewest characters
// ("17179869184" B is "16GiB", 1.8e9 Hz is "1.8GHz", 1023 B stays "1023B"), written without a space
// so that it reads back as it is; a unit without suffixes ("packets") follows the number after a
// space. Integers print every digit.
std::string format_quantity(double v, const std::string& unit, bool integer = false);
// True if `unit` has suffixes (B, ns, Hz, B/s...).
bool has_suffixes(const std::string& unit);

}  // namespace hs
