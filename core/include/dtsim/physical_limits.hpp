#pragma once
// The range of every physical quantity a scenario, a hardware preset or a profile gives (docs/scenario.md,
// "Ranges"). Outside them SimGrid aborts, hangs or loses the small terms of a sum to rounding: a latency of
// 1e300 s never lets the clock advance past it, a rate of 1e-318 B/s is a denormal its solver divides by,
// and a microsecond kernel vanishes beside a clock at 1e12 s.
#include <optional>
#include <string>
#include <string_view>

namespace dtsim {

enum class Quantity {
    size,              // bytes: gradients, buckets, memory
    bandwidth,         // bytes per second of a link, a memory or a server's aggregation
    fitted_bandwidth,  // a profile's per-byte rate, where kUnboundedBytesPerSecond marks a flat plateau
    latency,           // seconds: a link's one-way latency, a fixed cost per message or kernel
    duration,          // seconds: compute times, straggler pauses, fault times, checkpoint intervals
    flop_rate,         // FLOP per second
};

struct QuantityRange {
    std::string_view name;  // "bandwidth"
    double min;             // bytes, bytes per second, seconds or FLOP per second
    double max;
    std::string_view text;  // "from 1 kbit/s to 1 Pbit/s"
};

const QuantityRange& range_of(Quantity quantity);

/// "expected a bandwidth from 1 kbit/s to 1 Pbit/s" when `value` lies outside its range (or is not finite);
/// nothing when it lies inside.
std::optional<std::string> out_of_range(Quantity quantity, double value);

/// The latest simulated time a run may reach: there a double still resolves 15 ns, so a microsecond's kernel
/// or latency is still counted. Past it, the run is refused rather than reported with its small terms lost.
inline constexpr double kMaxSimulatedSeconds = 1e8;
inline constexpr std::string_view kMaxSimulatedText = "1e8 s (about 3 years)";

}  // namespace dtsim
