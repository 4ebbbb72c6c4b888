#include "text_table.hpp"

#include <algorithm>
#include <cstdio>

#include "dtsim/utf8_text.hpp"

namespace dtsim::cli {
namespace {

// Display width of UTF-8 text: count code points, not bytes ("×", "µ").
size_t display_width(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

TextTable::TextTable(std::vector<std::string> headers, std::vector<bool> right_aligned)
    : headers_(std::move(headers)), right_aligned_(std::move(right_aligned)) {
    right_aligned_.resize(headers_.size(), false);
}

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    // Cells often hold what a runs database or a scenario says: escaped, they cannot drive the terminal.
    for (auto& cell : cells) cell = printable_text(cell);
    rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out, const std::string& indent) const {
    std::vector<size_t> widths(headers_.size());
    for (size_t c = 0; c < headers_.size(); ++c) {
        widths[c] = display_width(headers_[c]);
        for (const auto& row : rows_) widths[c] = std::max(widths[c], display_width(row[c]));
    }
    auto print_row = [&](const std::vector<std::string>& cells) {
        out << indent;
        for (size_t c = 0; c < cells.size(); ++c) {
            const std::string pad(widths[c] - display_width(cells[c]), ' ');
            out << (c ? "  " : "") << (right_aligned_[c] ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : ""));
        }
        out << "\n";
    };
    print_row(headers_);
    out << indent;
    for (size_t c = 0; c < widths.size(); ++c) out << (c ? "  " : "") << std::string(widths[c], '-');
    out << "\n";
    for (const auto& row : rows_) print_row(row);
}

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string text = buffer;
    const size_t digits_from = text.front() == '-' ? 1 : 0;
    const size_t digits_to = std::min(text.find('.'), text.size());
    if (!std::all_of(text.begin() + static_cast<std::ptrdiff_t>(digits_from), text.begin() + static_cast<std::ptrdiff_t>(digits_to),
                     [](char c) { return c >= '0' && c <= '9'; }))
        return text;  // inf, nan
    std::string grouped;
    for (size_t i = 0; i < text.size(); ++i) {
        if (i > digits_from && i < digits_to && (digits_to - i) % 3 == 0) grouped += ',';
        grouped += text[i];
    }
    return grouped;
}

std::string percent(double fraction) { return fixed(100 * fraction, 1) + " %"; }

}  // namespace dtsim::cli
