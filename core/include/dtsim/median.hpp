#pragma once
// The median, as calibration statistics and error summaries report it, and percentiles as run summaries do.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace dtsim {

/// The middle value (the mean of the two middle values for an even count). Throws on an empty list.
inline double median(std::vector<double> values) {
    if (values.empty()) throw std::invalid_argument("the median of no values");
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

/// The value below which `fraction` of the sorted, non-empty values lie (nearest rank).
inline double percentile(const std::vector<double>& sorted, double fraction) {
    const auto rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace dtsim
