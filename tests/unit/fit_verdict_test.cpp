// Verdicts on network fits: what `dtsim fit` says of each and why.
#include <catch2/catch.hpp>

#include "dtsim/calibrate/fit_verdict.hpp"

namespace fit_verdict_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

NetworkFit fit_of(NetworkOp op, int ranks, std::vector<AlphaBetaSegment> segments, double median_error = 0.01,
                  double max_error = 0.05) {
    NetworkFit fit;
    fit.op = op;
    fit.mode = TimingMode::latency;
    fit.link_class = LinkClass::inter_node;
    fit.ranks = ranks;
    fit.nodes = ranks;
    fit.model.segments = std::move(segments);
    fit.quality = {10, 0.99, median_error, max_error};
    return fit;
}

bool says(const FitVerdict& verdict, const std::string& text) {
    for (const auto& reason : verdict.reasons)
        if (reason.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("a fit's verdict names what is physically implausible or poorly measured", "[unit][calibrate]") {
    Profile profile;
    // 2 ranks: 20 us. 4 ranks: 3 (ring steps) explain up to 4·3·20 us = 240 us; 200 us passes, 30 ms does not.
    profile.network.push_back(fit_of(NetworkOp::allreduce, 2, {{0, 20e-6, 1e9}}));
    profile.network.push_back(fit_of(NetworkOp::allreduce, 4, {{0, 200e-6, 1e9}}));
    profile.network.push_back(fit_of(NetworkOp::allreduce, 8, {{0, 30e-3, 1e9}}));
    // A later segment whose negative intercept makes 1 MiB take 2.5 ms where the segment before ends at
    // 10.5 ms, and a sample the model misses by 40 %.
    profile.network.push_back(fit_of(NetworkOp::sendrecv, 2, {{0, 50e-6, 1e8}, {1 << 20, -8e-3, 1e8}}, 0.02, 0.4));
    // A shaper's burst: past 1 MiB the rate falls and the intercept is negative, but the time goes on rising.
    profile.network.push_back(fit_of(NetworkOp::pingpong, 2, {{0, 50e-6, 1e8}, {1 << 20, -2e-3, 6e7}}));
    // The model misses its samples by 15 % (median), and a measured point is ±20 %.
    auto noisy = fit_of(NetworkOp::broadcast, 4, {{0, 10e-6, 1e9}}, 0.15);
    noisy.measured = {{1024, 1e-3}, {4096, 2e-3}};
    noisy.measured_error_s = {0.01e-3, 0.4e-3};
    noisy.stalls = 3;
    profile.network.push_back(noisy);

    const auto verdicts = judge_network_fits(profile);
    REQUIRE(verdicts.size() == 6);
    CHECK(verdicts[0].rating == FitRating::good);
    CHECK(verdicts[0].reasons.empty());
    CHECK(verdicts[1].rating == FitRating::good);
    CHECK(verdicts[2].rating == FitRating::poor);
    CHECK(says(verdicts[2], "more than 8 ranks explain from the 2-rank"));
    CHECK(verdicts[3].rating == FitRating::check);
    CHECK(says(verdicts[3], "the model drops from 10.536 ms to 2.486 ms"));
    CHECK(says(verdicts[3], "misses one sample by 40.0 %"));
    CHECK(verdicts[4].rating == FitRating::good);
    CHECK(verdicts[5].rating == FitRating::poor);
    CHECK(says(verdicts[5], "misses its samples by 15.0 % (median)"));
    CHECK(says(verdicts[5], "noisy measured points: "));
    CHECK(says(verdicts[5], " ±20.0 %"));
    CHECK_FALSE(says(verdicts[5], " ±1.0 %"));  // the first point is steady
    CHECK(says(verdicts[5], "3 stalled iterations left out"));
    CHECK(to_string(FitRating::check) == "check");
}

}  // namespace fit_verdict_test
