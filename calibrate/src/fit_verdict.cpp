#include "dtsim/calibrate/fit_verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "dtsim/units.hpp"

namespace dtsim::calibrate {
namespace {

constexpr double kPoorMedianError = 0.10;
constexpr double kCheckMaxError = 0.25;
constexpr double kCheckPointError = 0.10;
constexpr double kCheckDrop = 0.9;  // a segment starting below this share of the time the one before ends at
constexpr double kAlphaGrowthPerRank = 4;  // a ring's latency is 2 (N − 1) steps: twice that, with room
constexpr double kAlphaFloorS = 10e-6;

std::string percent_text(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100 * fraction);
    return text;
}

void worsen(FitVerdict& verdict, FitRating rating, std::string reason) {
    verdict.rating = std::max(verdict.rating, rating);
    verdict.reasons.push_back(std::move(reason));
}

// The fewest ranks' first-segment α per (op, mode, link class).
using Family = std::tuple<NetworkOp, TimingMode, LinkClass>;
std::map<Family, const NetworkFit*> fewest_ranks(const Profile& profile) {
    std::map<Family, const NetworkFit*> out;
    for (const auto& fit : profile.network) {
        auto& least = out[{fit.op, fit.mode, fit.link_class}];
        if (!least || fit.ranks < least->ranks) least = &fit;
    }
    return out;
}

}  // namespace

std::vector<FitVerdict> judge_network_fits(const Profile& profile) {
    const auto least = fewest_ranks(profile);
    std::vector<FitVerdict> verdicts;
    for (const auto& fit : profile.network) {
        FitVerdict verdict;
        const auto& q = fit.quality;
        if (q.samples > 0 && q.median_relative_error > kPoorMedianError)
            worsen(verdict, FitRating::poor, "the model misses its samples by " + percent_text(q.median_relative_error) + " (median)");
        const auto* base = least.at({fit.op, fit.mode, fit.link_class});
        if (base->ranks < fit.ranks && !fit.model.segments.empty() && !base->model.segments.empty()) {
            const double base_alpha = std::max(base->model.segments.front().alpha_s, kAlphaFloorS);
            const double limit = kAlphaGrowthPerRank * (fit.ranks - 1) / (base->ranks - 1) * base_alpha;
            const double alpha = fit.model.segments.front().alpha_s;
            if (alpha > limit)
                worsen(verdict, FitRating::poor,
                       "α " + format_seconds(alpha) + " is more than " + std::to_string(fit.ranks) + " ranks explain from the " +
                           std::to_string(base->ranks) + "-rank α " + format_seconds(base->model.segments.front().alpha_s) +
                           " (limit " + format_seconds(limit) + "): stalls fitted as latency?");
        }
        const auto& segments = fit.model.segments;
        for (size_t k = 1; k < segments.size(); ++k) {
            const double bytes = segments[k].min_bytes;
            const double before = segments[k - 1].alpha_s + bytes / segments[k - 1].bytes_per_second;
            const double after = segments[k].alpha_s + bytes / segments[k].bytes_per_second;
            if (after < kCheckDrop * before)
                worsen(verdict, FitRating::check,
                       "at " + format_bytes(bytes) + " the model drops from " + format_seconds(before) + " to " + format_seconds(after) +
                           " (intercept " + format_seconds(segments[k].alpha_s) + "): more bytes cannot take less time");
        }
        if (q.samples > 0 && q.max_relative_error > kCheckMaxError)
            worsen(verdict, FitRating::check, "the model misses one sample by " + percent_text(q.max_relative_error));
        std::string noisy;
        for (size_t i = 0; i < fit.measured_error_s.size() && i < fit.measured.size(); ++i)
            if (fit.measured_error_s[i] > kCheckPointError * fit.measured[i].second)
                noisy += (noisy.empty() ? "" : ", ") + format_bytes(fit.measured[i].first) + " ±" +
                         percent_text(fit.measured_error_s[i] / fit.measured[i].second);
        if (!noisy.empty()) worsen(verdict, FitRating::check, "noisy measured points: " + noisy);
        if (fit.stalls > 0)
            verdict.reasons.push_back(std::to_string(fit.stalls) + " stalled iteration" + (fit.stalls > 1 ? "s" : "") +
                                      " left out of the measured points");
        verdicts.push_back(std::move(verdict));
    }
    return verdicts;
}

}  // namespace dtsim::calibrate
