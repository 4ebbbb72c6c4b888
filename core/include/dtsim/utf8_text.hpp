#pragma once
// Text that came from outside (a scenario, the command line, a runs database) is checked for valid UTF-8
// before it is stored or written as JSON, and escaped before it is printed on a terminal.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dtsim {

/// The offset of the first byte that is not part of well-formed UTF-8 (an overlong form, a surrogate, a
/// code point above U+10FFFF and a cut-short sequence are not); nullopt when the whole text is.
std::optional<std::size_t> invalid_utf8_offset(std::string_view text);

/// Throws an InputError "<where>: expected UTF-8 text, ..." naming the first byte that is not UTF-8.
void require_utf8(std::string_view text, const std::string& where);

/// The text with what a terminal would act on written out instead: control characters (C0, DEL, C1) as
/// \xNN or \u00NN, and bytes that are not UTF-8 as \xNN. Printable text, UTF-8 included, is unchanged.
std::string printable_text(std::string_view text);

}  // namespace dtsim
