#include "dtsim/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace dtsim {
namespace {

struct Unit {
    std::string_view suffix;
    double factor;
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// Splits "12.5 GB/s" into 12.5 and "GB/s". Rejects negative, NaN and infinite numbers.
std::optional<std::pair<double, std::string_view>> split_number(std::string_view text) {
    text = trim(text);
    size_t end = 0;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
                                 text[end] == 'e' || text[end] == 'E' || text[end] == '+' || text[end] == '-')) {
        // An 'e' followed by a letter is a unit ("5 EB" is not supported, but "2e" alone is not a number).
        if ((text[end] == 'e' || text[end] == 'E') &&
            (end + 1 >= text.size() || !(std::isdigit(static_cast<unsigned char>(text[end + 1])) ||
                                         text[end + 1] == '-' || text[end + 1] == '+')))
            break;
        ++end;
    }
    if (end == 0) return std::nullopt;
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + end, value);
    if (ec != std::errc{} || ptr != text.data() + end || !std::isfinite(value) || value < 0) return std::nullopt;
    return std::pair{value, trim(text.substr(end))};
}

template <size_t N>
std::optional<double> parse_with(std::string_view text, const std::array<Unit, N>& units, bool bare_allowed) {
    auto parts = split_number(text);
    if (!parts) return std::nullopt;
    auto [value, suffix] = *parts;
    if (suffix.empty()) return bare_allowed ? std::optional<double>(value) : std::nullopt;
    for (const auto& unit : units) {
        if (unit.suffix != suffix) continue;
        const double scaled = value * unit.factor;
        if (!std::isfinite(scaled)) return std::nullopt;
        return scaled;
    }
    return std::nullopt;
}

constexpr double kKi = 1024.0;

constexpr std::array<Unit, 11> kByteUnits{{{"B", 1},
                                            {"kB", 1e3},
                                            {"KB", 1e3},
                                            {"MB", 1e6},
                                            {"GB", 1e9},
                                            {"TB", 1e12},
                                            {"KiB", kKi},
                                            {"MiB", kKi * kKi},
                                            {"GiB", kKi * kKi * kKi},
                                            {"TiB", kKi * kKi * kKi * kKi},
                                            {"bytes", 1}}};

constexpr std::array<Unit, 22> kBandwidthUnits{{{"B/s", 1},        {"Bps", 1},         {"kB/s", 1e3},
                                                 {"KB/s", 1e3},     {"MB/s", 1e6},      {"GB/s", 1e9},
                                                 {"TB/s", 1e12},    {"MBps", 1e6},      {"GBps", 1e9},
                                                 {"MiB/s", kKi * kKi}, {"GiB/s", kKi * kKi * kKi},
                                                 {"bps", 1.0 / 8},  {"b/s", 1.0 / 8},   {"kbps", 1e3 / 8},
                                                 {"Kbps", 1e3 / 8}, {"Mbps", 1e6 / 8},  {"Mb/s", 1e6 / 8},
                                                 {"Gbps", 1e9 / 8}, {"Gb/s", 1e9 / 8},  {"Tbps", 1e12 / 8},
                                                 {"Tb/s", 1e12 / 8}, {"Mbit/s", 1e6 / 8}}};

constexpr std::array<Unit, 8> kTimeUnits{
    {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}, {"min", 60}, {"h", 3600}, {"sec", 1}}};

constexpr std::array<Unit, 8> kFlopsUnits{{{"FLOPS", 1},
                                           {"kFLOPS", 1e3},
                                           {"MFLOPS", 1e6},
                                           {"GFLOPS", 1e9},
                                           {"TFLOPS", 1e12},
                                           {"PFLOPS", 1e15},
                                           {"GFLOP/s", 1e9},
                                           {"TFLOP/s", 1e12}}};

std::string with_prefix(double value, const char* unit) {
    static constexpr std::array<std::pair<double, const char*>, 4> prefixes{{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
    double scale = 1;
    const char* prefix = "";
    for (auto [s, p] : prefixes) {
        if (std::fabs(value) >= s) {
            scale = s;
            prefix = p;
            break;
        }
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3g %s%s", value / scale, prefix, unit);
    return buffer;
}

}  // namespace

std::optional<double> parse_bytes(std::string_view text) { return parse_with(text, kByteUnits, true); }
std::optional<double> parse_bytes_per_second(std::string_view text) { return parse_with(text, kBandwidthUnits, false); }
std::optional<double> parse_seconds(std::string_view text) {
    // "5" could mean seconds or microseconds: only zero may be written without a unit.
    auto value = parse_with(text, kTimeUnits, true);
    if (value && *value != 0 && split_number(text)->second.empty()) return std::nullopt;
    return value;
}
std::optional<double> parse_flops_per_second(std::string_view text) { return parse_with(text, kFlopsUnits, false); }

std::string format_bytes(double bytes) { return with_prefix(bytes, "B"); }
std::string format_bytes_per_second(double bytes_per_second) { return with_prefix(bytes_per_second, "B/s"); }
std::string format_flops_per_second(double flops_per_second) { return with_prefix(flops_per_second, "FLOP/s"); }
std::string format_flops(double flops) { return with_prefix(flops, "FLOP"); }
std::string format_count(double count) { return with_prefix(count, ""); }

std::string format_seconds(double seconds) {
    if (seconds == 0) return "0";  // "0.000 us" beside milliseconds reads as a measured microsecond value
    char buffer[64];
    if (seconds >= 1)
        std::snprintf(buffer, sizeof buffer, "%.3f s", seconds);
    else if (seconds >= 1e-3)
        std::snprintf(buffer, sizeof buffer, "%.3f ms", seconds * 1e3);
    else
        std::snprintf(buffer, sizeof buffer, "%.3f us", seconds * 1e6);
    return buffer;
}

}  // namespace dtsim
