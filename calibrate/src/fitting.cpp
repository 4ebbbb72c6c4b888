#include "dtsim/calibrate/fitting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "dtsim/median.hpp"

namespace dtsim::calibrate {
namespace {

// An RMS relative error below a part per billion is an exact fit: more segments would only fit round-off.
constexpr double kExactRms = 1e-9;

using Span = std::span<const Observation>;

/// t = alpha + gamma·x and its cost Σ((t̂ − t)/t)².
struct Line {
    double alpha = 0;
    double gamma = 0;
    double cost = 0;
};

double relative_cost(Span observations, double alpha, double gamma) {
    double cost = 0;
    for (const auto& o : observations) {
        const double relative = (alpha + gamma * o.x - o.seconds) / o.seconds;
        cost += relative * relative;
    }
    return cost;
}

Line with_cost(Span observations, double alpha, double gamma) {
    return {alpha, gamma, relative_cost(observations, alpha, gamma)};
}

/// Weighted least squares with weights 1/t² (centred form, stable over sizes spanning 8 orders of magnitude),
/// constrained to gamma >= 0 and to alpha >= 0 for the first segment. A later segment may have a negative
/// intercept as long as its times stay positive: bytes beyond a breakpoint then cost t = (bytes − c)·gamma,
/// the first c bytes having gone ahead faster (a token bucket's burst, an eager buffer, a pipelined protocol's
/// prefix). The problem is convex, so when the free optimum breaks a constraint the constrained one lies on a
/// boundary: alpha only (a flat plateau) or gamma only.
Line fit_line(Span observations, bool first_segment) {
    double sum_w = 0, sum_wx = 0, sum_wt = 0;
    for (const auto& o : observations) {
        const double w = 1 / (o.seconds * o.seconds);
        sum_w += w;
        sum_wx += w * o.x;
        sum_wt += w * o.seconds;
    }
    const double mean_x = sum_wx / sum_w, mean_t = sum_wt / sum_w;
    double sxx = 0, sxt = 0, sum_wxx = 0, sum_wxt = 0;
    for (const auto& o : observations) {
        const double w = 1 / (o.seconds * o.seconds);
        sxx += w * (o.x - mean_x) * (o.x - mean_x);
        sxt += w * (o.x - mean_x) * (o.seconds - mean_t);
        sum_wxx += w * o.x * o.x;
        sum_wxt += w * o.x * o.seconds;
    }
    const double gamma = sxt / sxx;
    const double alpha = mean_t - gamma * mean_x;
    const bool intercept_allowed = alpha >= 0 || (!first_segment && alpha + gamma * observations.front().x > 0);
    if (intercept_allowed && gamma > 0) return with_cost(observations, alpha, gamma);
    const Line flat = with_cost(observations, mean_t, 0);
    const Line through_origin = with_cost(observations, 0, sum_wxt / sum_wxx);
    return through_origin.cost < flat.cost ? through_origin : flat;
}

double rate_from_gamma(double gamma) { return gamma > 1 / kUnboundedBytesPerSecond ? 1 / gamma : kUnboundedBytesPerSecond; }

void validate(const std::vector<Observation>& observations, const char* what) {
    if (observations.empty()) throw std::invalid_argument(std::string(what) + ": no observations");
    for (const auto& o : observations) {
        if (!(o.seconds > 0) || !std::isfinite(o.seconds))
            throw std::invalid_argument(std::string(what) + ": a time is not a positive finite number of seconds (" +
                                        std::to_string(o.seconds) + ")");
        if (!(o.x >= 0) || !std::isfinite(o.x))
            throw std::invalid_argument(std::string(what) + ": a size is not a non-negative finite number (" +
                                        std::to_string(o.x) + ")");
    }
}

/// Sorts by size and returns the index of the first observation of each distinct size, plus the end.
std::vector<size_t> sort_and_group(std::vector<Observation>& observations, const char* what) {
    validate(observations, what);
    std::sort(observations.begin(), observations.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
    std::vector<size_t> starts;
    for (size_t i = 0; i < observations.size(); ++i)
        if (i == 0 || observations[i].x != observations[i - 1].x) starts.push_back(i);
    if (starts.size() < 2)
        throw std::invalid_argument(std::string(what) + ": need at least 2 distinct sizes to fit, got " +
                                    std::to_string(starts.size()));
    starts.push_back(observations.size());
    return starts;
}

/// Best partitions of the distinct sizes into 1..max_k contiguous segments (dynamic programming over
/// breakpoints): cost[k][j] is the least total relative cost of the first j sizes in k segments and
/// first[k][j] the first size of the last of them.
struct Partitions {
    std::vector<std::vector<double>> cost;
    std::vector<std::vector<size_t>> first;
};

Partitions best_partitions(Span observations, const std::vector<size_t>& starts, size_t max_k, size_t min_sizes) {
    const size_t sizes = starts.size() - 1;
    const double none = std::numeric_limits<double>::infinity();
    std::vector<std::vector<double>> segment_cost(sizes, std::vector<double>(sizes + 1, none));
    for (size_t i = 0; i < sizes; ++i)
        for (size_t j = i + min_sizes; j <= sizes; ++j)
            segment_cost[i][j] = fit_line(observations.subspan(starts[i], starts[j] - starts[i]), i == 0).cost;

    Partitions p{std::vector<std::vector<double>>(max_k + 1, std::vector<double>(sizes + 1, none)),
                 std::vector<std::vector<size_t>>(max_k + 1, std::vector<size_t>(sizes + 1, 0))};
    p.cost[0][0] = 0;
    for (size_t k = 1; k <= max_k; ++k)
        for (size_t j = k * min_sizes; j <= sizes; ++j)
            for (size_t i = (k - 1) * min_sizes; i + min_sizes <= j; ++i) {
                const double total = p.cost[k - 1][i] + segment_cost[i][j];
                if (total < p.cost[k][j]) {
                    p.cost[k][j] = total;
                    p.first[k][j] = i;
                }
            }
    return p;
}

/// Fewest segments such that one more would not lower the RMS relative error by min_improvement.
size_t chosen_segment_count(const Partitions& p, size_t observations, size_t sizes, size_t max_k,
                            double min_improvement) {
    const auto rms = [&](size_t k) { return std::sqrt(p.cost[k][sizes] / static_cast<double>(observations)); };
    size_t k = 1;
    while (k < max_k) {
        if (rms(k) < kExactRms || rms(k + 1) > (1 - min_improvement) * rms(k)) break;
        ++k;
    }
    return k;
}


}  // namespace

PiecewiseAlphaBeta fit_piecewise_alpha_beta(std::vector<Observation> observations, const SegmentationOptions& options) {
    const auto starts = sort_and_group(observations, "fit_piecewise_alpha_beta");
    const size_t sizes = starts.size() - 1;
    // A segment needs two distinct sizes to have a slope; with few sizes the minimum shrinks to what there is.
    const size_t min_sizes = std::min(static_cast<size_t>(std::max(options.min_points_per_segment, 2)), sizes);
    const size_t max_k = std::min(static_cast<size_t>(std::max(options.max_segments, 1)), sizes / min_sizes);

    const Span all(observations);
    const auto partitions = best_partitions(all, starts, max_k, min_sizes);
    size_t k = chosen_segment_count(partitions, observations.size(), sizes, max_k, options.min_improvement);

    PiecewiseAlphaBeta model;
    model.segments.resize(k);
    for (size_t end = sizes; k > 0; --k) {
        const size_t begin = partitions.first[k][end];
        const Line line = fit_line(all.subspan(starts[begin], starts[end] - starts[begin]), begin == 0);
        const double min_bytes = begin == 0 ? 0 : observations[starts[begin]].x;
        model.segments[k - 1] = {min_bytes, line.alpha, rate_from_gamma(line.gamma)};
        end = begin;
    }
    return model;
}

GemmFit fit_gemm(std::vector<Observation> flops_and_seconds, Precision precision) {
    sort_and_group(flops_and_seconds, "fit_gemm");  // validates, and a slope needs two distinct sizes
    const Line line = fit_line(flops_and_seconds, true);
    GemmFit fit;
    fit.precision = precision;
    fit.fixed_s = line.alpha;
    fit.flops_per_second = rate_from_gamma(line.gamma);
    fit.quality = evaluate_fit(flops_and_seconds, [&fit](double flops) { return fit.seconds(flops); });
    return fit;
}

CodecFit fit_codec(std::vector<Observation> bytes_and_seconds, CodecKernel kernel, double ratio, int blocks, int rank) {
    sort_and_group(bytes_and_seconds, "fit_codec");
    const Line line = fit_line(bytes_and_seconds, true);
    CodecFit fit;
    fit.kernel = kernel;
    fit.fixed_s = line.alpha;
    fit.bytes_per_second = rate_from_gamma(line.gamma);
    fit.ratio = ratio;
    fit.blocks = blocks;
    fit.rank = rank;
    fit.quality = evaluate_fit(bytes_and_seconds, [&fit](double bytes) { return fit.model_seconds(bytes); });
    return fit;
}

FitQuality evaluate_fit(const std::vector<Observation>& observations, const std::function<double(double)>& predict) {
    validate(observations, "evaluate_fit");
    double mean = 0;
    for (const auto& o : observations) mean += o.seconds;
    mean /= static_cast<double>(observations.size());

    double ss_res = 0, ss_tot = 0;
    std::vector<double> relative_errors;
    for (const auto& o : observations) {
        const double predicted = predict(o.x);
        ss_res += (predicted - o.seconds) * (predicted - o.seconds);
        ss_tot += (o.seconds - mean) * (o.seconds - mean);
        relative_errors.push_back(std::abs(predicted - o.seconds) / o.seconds);
    }
    FitQuality quality;
    quality.samples = static_cast<int>(observations.size());
    // All times equal: R² is undefined; call a perfect prediction 1 and any other 0.
    quality.r_squared = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1 : 0);
    quality.median_relative_error = median(relative_errors);
    quality.max_relative_error = *std::max_element(relative_errors.begin(), relative_errors.end());
    return quality;
}

}  // namespace dtsim::calibrate
