#include "dtsim/calibrate/sample_estimate.hpp"

#include <cmath>

#include "dtsim/median.hpp"

namespace dtsim::calibrate {
namespace {

// The median absolute deviation times this estimates the standard deviation of a normal distribution.
constexpr double kMadToDeviation = 1.4826;

}  // namespace

SampleEstimate estimate_sample(const std::vector<double>& iteration_times_s) {
    SampleEstimate out;
    out.median_s = median(iteration_times_s);
    std::vector<double> deviations;
    for (double t : iteration_times_s) deviations.push_back(std::fabs(t - out.median_s));
    const double deviation = kMadToDeviation * median(deviations);
    out.spread = out.median_s > 0 ? deviation / out.median_s : 0;
    std::vector<double> kept;
    for (double t : iteration_times_s) {
        if (t > kStallOverMedian * out.median_s && t > out.median_s + kStallDeviations * deviation)
            ++out.stalls;
        else
            kept.push_back(t);
    }
    double sum = 0;
    for (double t : kept) sum += t;
    out.mean_s = sum / static_cast<double>(kept.size());
    if (kept.size() > 1) {
        double squares = 0;
        for (double t : kept) squares += (t - out.mean_s) * (t - out.mean_s);
        out.standard_error_s = std::sqrt(squares / static_cast<double>(kept.size() - 1) / static_cast<double>(kept.size()));
    }
    return out;
}

}  // namespace dtsim::calibrate
