#include "dtsim/profile_draw.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "dtsim/median.hpp"

namespace dtsim {
namespace {

constexpr double kFloor = 0.01;  // of a drawn time's value

double draw(std::mt19937_64& random, double value, double error) {
    return std::max(kFloor * value, value + error * std::normal_distribution<double>(0, 1)(random));
}

void draw_points(std::vector<std::pair<double, double>>& points, const std::vector<double>& errors_s, std::mt19937_64& random) {
    if (errors_s.size() != points.size()) return;
    for (size_t i = 0; i < points.size(); ++i) points[i].second = draw(random, points[i].second, errors_s[i]);
}

// The relative standard error of a fit's model: its points' median relative error, over √(points).
double model_error(const NetworkFit& fit) {
    if (fit.measured_error_s.size() != fit.measured.size() || fit.measured.empty()) return 0;
    std::vector<double> relative;
    for (size_t i = 0; i < fit.measured.size(); ++i) relative.push_back(fit.measured_error_s[i] / fit.measured[i].second);
    return median(relative) / std::sqrt(static_cast<double>(relative.size()));
}

}  // namespace

Profile draw_profile(const Profile& profile, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    Profile drawn = profile;
    for (auto& fit : drawn.network) {
        const double factor = draw(random, 1, model_error(fit));
        for (auto& segment : fit.model.segments) {
            segment.alpha_s *= factor;
            if (segment.bytes_per_second < kUnboundedBytesPerSecond) segment.bytes_per_second /= factor;
        }
        draw_points(fit.measured, fit.measured_error_s, random);
    }
    if (drawn.compute)
        for (auto& fit : drawn.compute->codecs) draw_points(fit.measured, fit.measured_error_s, random);
    return drawn;
}

}  // namespace dtsim
