#pragma once
// What one calibration sample's timed iterations say (docs/calibration.md, "Estimators"): the time the
// sample reports is their median, which a stall does not move; a stall is an iteration far above the
// others (a preempted rank, a retransmission timeout), counted and left out of the mean that the profile
// keeps as the measured point; the spread is how widely one iteration varies.
#include <vector>

namespace dtsim::calibrate {

/// An iteration is a stall when it is more than kStallOverMedian times the median and more than
/// kStallDeviations robust standard deviations above it.
inline constexpr double kStallOverMedian = 3;
inline constexpr double kStallDeviations = 6;

struct SampleEstimate {
    double median_s = 0;
    double mean_s = 0;            // of the iterations that are not stalls
    double standard_error_s = 0;  // of mean_s; 0 with fewer than two iterations
    double spread = 0;            // one iteration's robust relative standard deviation: 1.4826 MAD / median
    int stalls = 0;
};

/// Throws std::invalid_argument on an empty list.
SampleEstimate estimate_sample(const std::vector<double>& iteration_times_s);

}  // namespace dtsim::calibrate
