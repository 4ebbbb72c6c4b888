#include "dtsim/physical_limits.hpp"

#include <array>
#include <cmath>

#include "dtsim/profile.hpp"

namespace dtsim {
namespace {

constexpr double kBitsPerByte = 8;
constexpr double kSecondsPerYear = 365.25 * 24 * 3600;

// One row per Quantity, in its order. Bandwidths: from a slow serial line to beyond any link or HBM stack, doubled
// (plan --why's "2× GPU speed" doubles a B200's 8 TB/s to 128 Tbit/s).
// Durations: a run is simulated over days, not ages. FLOP rates: from a slow core to a rack of GPUs.
constexpr std::array<QuantityRange, 6> kRanges{{
    {"size", 0, 1e15, "from 0 to 1 PB"},
    {"bandwidth", 1e3 / kBitsPerByte, 1e15 / kBitsPerByte, "from 1 kbit/s to 1 Pbit/s"},
    {"fitted per-byte rate", 1e3 / kBitsPerByte, kUnboundedBytesPerSecond, "from 125 (1 kbit/s) to 1e15 bytes per second"},
    {"latency", 0, 10, "from 0 to 10 s"},
    {"duration", 0, kSecondsPerYear, "from 0 to 1 year (8766 h)"},
    {"compute rate", 1e6, 1e17, "from 1 MFLOPS to 100 PFLOPS"},
}};

}  // namespace

const QuantityRange& range_of(Quantity quantity) { return kRanges[static_cast<std::size_t>(quantity)]; }

std::optional<std::string> out_of_range(Quantity quantity, double value) {
    const auto& range = range_of(quantity);
    if (std::isfinite(value) && value >= range.min && value <= range.max) return std::nullopt;
    return "expected a " + std::string(range.name) + " " + std::string(range.text);
}

}  // namespace dtsim
