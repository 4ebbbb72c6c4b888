#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <stdexcept>

#include "dtsim/calibrate/fitting.hpp"

namespace fitting_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

/// Times of `model` at sizes first, 2·first, ... last, `repetitions` each, times a lognormal factor with σ = 1 %
/// (seeded, so the test is deterministic).
std::vector<Observation> noisy_samples(const std::function<double(double)>& model, double first, double last,
                                       int repetitions, unsigned seed) {
    std::mt19937 generator(seed);
    std::normal_distribution<double> noise(0.0, 0.01);
    std::vector<Observation> observations;
    for (double x = first; x <= last; x *= 2)
        for (int r = 0; r < repetitions; ++r) observations.push_back({x, model(x) * std::exp(noise(generator))});
    return observations;
}

}  // namespace

TEST_CASE("segmented regression recovers a three-regime alpha-beta model and its breakpoints", "[unit][fit]") {
    // Each regime spans its half-performance size alpha·bandwidth, so both of its parameters show in the times:
    // an eager regime with copies below 4 KiB, a pipelined one up to 256 KiB, and a rendezvous one above.
    const PiecewiseAlphaBeta truth{{{0, 2e-6, 1e9}, {4096, 8e-6, 5e9}, {262144, 20e-6, 11e9}}};
    const auto observations = noisy_samples([&](double b) { return truth.seconds(b); }, 8, 256.0 * 1024 * 1024, 16, 42);

    const auto fit = fit_piecewise_alpha_beta(observations);

    REQUIRE(fit.segments.size() == 3);
    CHECK(fit.segments[0].min_bytes == 0);
    for (size_t i = 0; i < 3; ++i) {
        INFO("segment " << i);
        CHECK(fit.segments[i].alpha_s == Approx(truth.segments[i].alpha_s).epsilon(0.02));
        CHECK(fit.segments[i].bytes_per_second == Approx(truth.segments[i].bytes_per_second).epsilon(0.02));
        if (i > 0) {
            CHECK(fit.segments[i].min_bytes >= truth.segments[i].min_bytes / 2);
            CHECK(fit.segments[i].min_bytes <= truth.segments[i].min_bytes * 2);
        }
    }
    const auto quality = evaluate_fit(observations, [&](double b) { return fit.seconds(b); });
    CHECK(quality.samples == static_cast<int>(observations.size()));
    CHECK(quality.median_relative_error < 0.01);
    CHECK(quality.r_squared > 0.999);
}

TEST_CASE("noise alone does not create breakpoints", "[unit][fit]") {
    const auto observations =
        noisy_samples([](double b) { return 5e-6 + b / 10e9; }, 8, 256.0 * 1024 * 1024, 5, 7);

    const auto fit = fit_piecewise_alpha_beta(observations);

    REQUIRE(fit.segments.size() == 1);
    CHECK(fit.segments[0].min_bytes == 0);
    CHECK(fit.segments[0].alpha_s == Approx(5e-6).epsilon(0.02));
    CHECK(fit.segments[0].bytes_per_second == Approx(10e9).epsilon(0.02));
}

TEST_CASE("a later segment may start from a negative intercept: a token bucket's burst", "[unit][fit]") {
    // A shaped link: 50 us + bytes at 1 GB/s while the 128 KiB burst lasts, then the rest at 125 MB/s, which is
    // t = alpha + bytes / 125 MB/s with alpha = 50 us + 131 us - 1049 us < 0 beyond the burst.
    constexpr double burst = 131072, latency = 50e-6, fast = 1e9, rate = 125e6;
    auto shaped = [&](double b) { return latency + std::min(b, burst) / fast + std::max(0.0, b - burst) / rate; };
    const auto observations = noisy_samples(shaped, 8, 16.0 * 1024 * 1024, 8, 3);

    const auto fit = fit_piecewise_alpha_beta(observations);

    REQUIRE(fit.segments.size() >= 2);
    const auto& last = fit.segments.back();
    CHECK(last.bytes_per_second == Approx(rate).epsilon(0.02));
    CHECK(last.alpha_s == Approx(latency + burst / fast - burst / rate).epsilon(0.02));
    CHECK(last.min_bytes >= burst);
    CHECK(last.min_bytes <= 2 * burst);
    CHECK(fit.segments.front().alpha_s >= 0);
    CHECK(evaluate_fit(observations, [&](double b) { return fit.seconds(b); }).max_relative_error < 0.05);
}

TEST_CASE("exact data is fitted exactly and a segment needs enough sizes", "[unit][fit]") {
    std::vector<Observation> observations;
    for (double b : {100.0, 200.0, 400.0, 800.0}) observations.push_back({b, 1e-6 + b / 2e9});
    SegmentationOptions options;
    options.min_points_per_segment = 10;  // more than there are: clamped, one segment over all four sizes

    const auto fit = fit_piecewise_alpha_beta(observations, options);

    REQUIRE(fit.segments.size() == 1);
    CHECK(fit.segments[0].alpha_s == Approx(1e-6).epsilon(1e-9));
    CHECK(fit.segments[0].bytes_per_second == Approx(2e9).epsilon(1e-9));
}

TEST_CASE("alpha-beta constraints: no negative latency, a flat plateau gets a finite bandwidth", "[unit][fit]") {
    SECTION("a fit whose free intercept is negative is refitted through the origin") {
        std::vector<Observation> observations;
        for (double b : {1e4, 2e4, 4e4, 8e4}) observations.push_back({b, -2e-6 + b / 1e9});
        const auto fit = fit_piecewise_alpha_beta(observations, SegmentationOptions{.max_segments = 1});
        REQUIRE(fit.segments.size() == 1);
        CHECK(fit.segments[0].alpha_s == 0);
        CHECK(fit.segments[0].bytes_per_second > 0);
        CHECK(std::isfinite(fit.segments[0].bytes_per_second));
        // Through the origin with weights 1/t²: γ = Σ(x/t) / Σ(x/t)².
        double sum_ratio = 0, sum_ratio_squared = 0;
        for (const auto& o : observations) {
            sum_ratio += o.x / o.seconds;
            sum_ratio_squared += (o.x / o.seconds) * (o.x / o.seconds);
        }
        CHECK(fit.segments[0].bytes_per_second == Approx(sum_ratio_squared / sum_ratio).epsilon(1e-12));
    }
    SECTION("a plateau whose times fall with size keeps alpha only") {
        const std::vector<Observation> observations{{8, 3.0e-6}, {16, 2.9e-6}, {32, 2.8e-6}, {64, 2.7e-6}};
        const auto fit = fit_piecewise_alpha_beta(observations, SegmentationOptions{.max_segments = 1});
        REQUIRE(fit.segments.size() == 1);
        CHECK(fit.segments[0].bytes_per_second == kUnboundedBytesPerSecond);
        CHECK(fit.segments[0].alpha_s > 2.7e-6);
        CHECK(fit.segments[0].alpha_s < 3.0e-6);
    }
}

TEST_CASE("GEMM efficiency curve is recovered from noisy timings", "[unit][fit]") {
    const auto gemm = [](double flops) { return 20e-6 + flops / 1.2e12; };
    std::vector<Observation> observations;
    std::mt19937 generator(3);
    std::normal_distribution<double> noise(0.0, 0.01);
    for (double n = 64; n <= 4096; n *= 2)
        for (int r = 0; r < 5; ++r) {
            const double flops = 2 * n * n * n;
            observations.push_back({flops, gemm(flops) * std::exp(noise(generator))});
        }

    const auto fit = fit_gemm(observations, Precision::bf16);

    CHECK(fit.precision == Precision::bf16);
    CHECK(fit.fixed_s == Approx(20e-6).epsilon(0.02));
    CHECK(fit.flops_per_second == Approx(1.2e12).epsilon(0.02));
    CHECK(fit.quality.samples == 35);
    CHECK(fit.quality.max_relative_error < 0.05);
    CHECK(fit.achieved_flops_per_second(2.0 * 64 * 64 * 64) < 0.05e12);  // tiny GEMMs are launch-bound
}

TEST_CASE("evaluate_fit on a hand example", "[unit][fit]") {
    // x: 1, 2, 4, 8; measured 2, 5, 10, 16; predicted 3, 5, 9, 17.
    const std::vector<Observation> observations{{1, 2}, {2, 5}, {4, 10}, {8, 16}};
    const auto quality = evaluate_fit(observations, [](double x) { return x == 8 ? 17 : 2 * x + 1; });

    CHECK(quality.samples == 4);
    // mean 8.25, SS_tot = 6.25² + 3.25² + 1.75² + 7.75² = 112.75, SS_res = 1 + 0 + 1 + 1 = 3.
    CHECK(quality.r_squared == Approx(1 - 3 / 112.75).epsilon(1e-12));
    // relative errors 0.5, 0, 0.1, 0.0625: median (0.0625 + 0.1) / 2.
    CHECK(quality.median_relative_error == Approx(0.08125).epsilon(1e-12));
    CHECK(quality.max_relative_error == Approx(0.5).epsilon(1e-12));

    const std::vector<Observation> constant{{1, 2}, {2, 2}};
    CHECK(evaluate_fit(constant, [](double) { return 2.0; }).r_squared == 1);
    CHECK(evaluate_fit(constant, [](double) { return 3.0; }).r_squared == 0);
}

TEST_CASE("fitting rejects data it cannot fit", "[unit][fit]") {
    CHECK_THROWS_AS(fit_piecewise_alpha_beta({}), std::invalid_argument);
    CHECK_THROWS_WITH(fit_piecewise_alpha_beta({{8, 1e-6}, {8, 2e-6}}), Catch::Contains("2 distinct sizes"));
    CHECK_THROWS_WITH(fit_piecewise_alpha_beta({{8, 1e-6}, {16, 0}}), Catch::Contains("positive"));
    CHECK_THROWS_AS(fit_piecewise_alpha_beta({{8, 1e-6}, {16, std::nan("")}}), std::invalid_argument);
    CHECK_THROWS_AS(fit_gemm({{1e9, 1e-3}}, Precision::fp32), std::invalid_argument);
    CHECK_THROWS_AS(evaluate_fit({}, [](double) { return 1.0; }), std::invalid_argument);
}

}  // namespace fitting_test
