// One calibration sample's estimators: the median, stalls, the spread and the stall-free mean.
#include <catch2/catch.hpp>

#include <cmath>

#include "dtsim/calibrate/sample_estimate.hpp"

namespace sample_estimate_test {

using namespace dtsim::calibrate;

TEST_CASE("an injected stall moves neither the estimate nor the mean, and is counted", "[unit][calibrate]") {
    // 15 iterations of a 2 ms exchange with a little noise; then the same with one iteration stalled for
    // 200 ms (a TCP retransmission timeout).
    std::vector<double> steady;
    for (int i = 0; i < 15; ++i) steady.push_back(2e-3 * (1 + 0.01 * ((i % 5) - 2)));
    auto stalled = steady;
    stalled[6] = 0.2;
    const auto quiet = estimate_sample(steady);
    const auto disturbed = estimate_sample(stalled);
    CHECK(quiet.stalls == 0);
    CHECK(disturbed.stalls == 1);
    CHECK(quiet.median_s == Approx(2e-3).epsilon(1e-12));
    CHECK(disturbed.median_s == Approx(quiet.median_s).epsilon(1e-12));
    // The mean of the others: the 14 iterations left.
    double others = 0;
    for (size_t i = 0; i < steady.size(); ++i) others += i == 6 ? 0 : steady[i];
    CHECK(disturbed.mean_s == Approx(others / 14).epsilon(1e-12));
    CHECK(disturbed.standard_error_s < 0.01 * disturbed.mean_s);
    CHECK(quiet.spread == Approx(disturbed.spread).margin(0.01));
}

TEST_CASE("a right-skewed sample keeps its tail; stalls need both rules", "[unit][calibrate]") {
    // 2.5 times the median is slow, not a stall: the mean keeps it.
    const auto skewed = estimate_sample({1, 1, 1, 2.5, 2.5});
    CHECK(skewed.stalls == 0);
    CHECK(skewed.mean_s == Approx(1.6));
    CHECK(skewed.standard_error_s == Approx(std::sqrt(2.7 / 4 / 5)));
    // Widely spread: 3.5 times the median, yet within 6 robust standard deviations of it.
    const auto wide = estimate_sample({1, 0.5, 1.5, 0.4, 1.6, 1, 3.5});
    CHECK(wide.spread == Approx(1.4826 * 0.5));
    CHECK(wide.stalls == 0);
    // One iteration: its time, no error.
    const auto one = estimate_sample({4e-3});
    CHECK(one.mean_s == 4e-3);
    CHECK(one.standard_error_s == 0);
    CHECK(one.spread == 0);
    CHECK_THROWS_AS(estimate_sample({}), std::invalid_argument);
}

}  // namespace sample_estimate_test
