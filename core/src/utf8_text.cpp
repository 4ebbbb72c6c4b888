#include "dtsim/utf8_text.hpp"

#include <cstdint>
#include <cstdio>

#include "dtsim/input_error.hpp"

namespace dtsim {
namespace {

// The length of the well-formed UTF-8 sequence at text[i] and its code point; 0 when there is none
// (RFC 3629, table 3-7 of the Unicode standard).
std::size_t sequence_at(std::string_view text, std::size_t i, char32_t& code_point) {
    const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
    const std::uint8_t lead = byte(i);
    if (lead < 0x80) {
        code_point = lead;
        return 1;
    }
    std::size_t length = 0;
    std::uint8_t low = 0x80, high = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;   // no overlong forms
        if (lead == 0xED) high = 0x9F;  // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;   // no overlong forms
        if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (i + length > text.size()) return 0;
    if (byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    code_point = lead & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) code_point = (code_point << 6) | (byte(i + k) & 0x3F);
    return length;
}

std::string hex_escape(const char* format, unsigned value) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

}  // namespace

std::optional<std::size_t> invalid_utf8_offset(std::string_view text) {
    char32_t code_point = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto length = sequence_at(text, i, code_point);
        if (length == 0) return i;
        i += length;
    }
    return std::nullopt;
}

void require_utf8(std::string_view text, const std::string& where) {
    const auto offset = invalid_utf8_offset(text);
    if (!offset) return;
    // The value, or the part of a long one around the byte, as it would print.
    constexpr std::size_t kShown = 40;
    const bool whole = text.size() <= 2 * kShown;
    const std::size_t from = whole || *offset < kShown / 2 ? 0 : *offset - kShown / 2;
    const auto shown = printable_text(text.substr(from, whole ? text.size() : kShown));
    throw InputError(where + ": expected UTF-8 text, got the byte " +
                     hex_escape("0x%02x", static_cast<std::uint8_t>(text[*offset])) + " in '" + (from > 0 ? "..." : "") +
                     shown + (whole || from + kShown >= text.size() ? "" : "...") + "'");
}

std::string printable_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    char32_t code_point = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto length = sequence_at(text, i, code_point);
        if (length == 0) {
            out += hex_escape("\\x%02x", static_cast<std::uint8_t>(text[i]));
            ++i;
            continue;
        }
        if (code_point < 0x20 || code_point == 0x7F)
            out += hex_escape("\\x%02x", static_cast<unsigned>(code_point));
        else if (code_point >= 0x80 && code_point <= 0x9F)
            out += hex_escape("\\u%04x", static_cast<unsigned>(code_point));
        else
            out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

}  // namespace dtsim
