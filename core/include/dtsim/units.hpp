#pragma once
// Quantities as people write them: "25MB", "1GiB", "400Gbps", "450GB/s", "2us", "989TFLOPS".
// Bytes use SI prefixes (1 MB = 1e6 B) unless the binary form is written (MiB, GiB).
// Bandwidths in bits ("Gbps", "Gb/s") are converted to bytes per second.
#include <optional>
#include <string>
#include <string_view>

namespace dtsim {

/// Each parser returns nullopt when the text is not a valid quantity of that kind.
/// A bare number is accepted only where the unit is unambiguous: a count of bytes, or a zero duration.
std::optional<double> parse_bytes(std::string_view text);
std::optional<double> parse_bytes_per_second(std::string_view text);
std::optional<double> parse_seconds(std::string_view text);
std::optional<double> parse_flops_per_second(std::string_view text);

/// Human-readable rendering for tables: "25 MB", "400 Gb/s"-style outputs use SI prefixes.
std::string format_bytes(double bytes);
std::string format_seconds(double seconds);
std::string format_bytes_per_second(double bytes_per_second);
std::string format_flops_per_second(double flops_per_second);
std::string format_flops(double flops);  // "1.54 TFLOP"
std::string format_count(double count);  // "6.74 G" (parameters)

}  // namespace dtsim
