#pragma once
// The median, as calibration statistics and error summaries report it.
#include <algorithm>
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

}  // namespace dtsim
