// `dtsim simulate --uncertainty N`: an interval for the iteration time from draws of the profile's costs.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace prediction_interval_test {

using namespace dtsim;

namespace {

constexpr double kLatency = 50e-6;
constexpr double kBandwidth = 1e9;

// Ping-pongs of kLatency + bytes / kBandwidth, measured at 15 sizes, each point with a standard error of
// `relative_error` of its time (0: none kept).
Profile profile_with_errors(double relative_error) {
    auto profile = test::pingpong_profile("drawn", LinkClass::inter_node, {{0, kLatency, kBandwidth}});
    auto& fit = profile.network.front();
    for (double bytes = 1024; bytes <= 16.0 * 1024 * 1024; bytes *= 2) {
        fit.measured.emplace_back(bytes, kLatency + bytes / kBandwidth);
        if (relative_error > 0) fit.measured_error_s.push_back(relative_error * fit.measured.back().second);
    }
    return profile;
}

struct Interval {
    double point, low, high;
};

test::CommandResult simulate(const test::TempDir& dir, double relative_error, const std::vector<std::string>& extra) {
    std::ofstream(dir.file("profile.json")) << profile_to_json(profile_with_errors(relative_error));
    std::ofstream(dir.file("s.yaml")) << "name: interval\nprofile: profile.json\n"
                                         "cluster: {nodes: 4, gpus_per_node: 1, gpu: h100-sxm, fabric: {topology: star}, network_model: ideal}\n"
                                         "model: {gradient_bytes: 8MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
                                         "training:\n  iterations: 1\n  fidelity: step\n"
                                         "  strategy: {kind: allreduce, algorithm: ring, bucket: 1GB}\n";
    std::vector<std::string> arguments{"simulate", dir.file("s.yaml"), "--json", dir.file("run.json")};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return test::run_dtsim(arguments);
}

Interval interval(double relative_error) {
    test::TempDir dir;
    const auto result = simulate(dir, relative_error, {"--uncertainty", "20"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("iteration time, 90 % interval") && Catch::Contains("(20 draws of the profile)"));
    std::ifstream in(dir.file("run.json"));
    const auto json = nlohmann::json::parse(in);
    CHECK(json.at("uncertainty_draws") == 20);
    return {json.at("iteration_time_s"), json.at("iteration_time_low_s"), json.at("iteration_time_high_s")};
}

}  // namespace

TEST_CASE("a prediction interval contains the point prediction and narrows with more samples", "[integration][profile]") {
    // Four times the samples per size halve the points' standard errors: 4 % -> 2 %.
    const auto few = interval(0.04);
    const auto many = interval(0.02);
    CAPTURE(few.point, few.low, few.high, many.low, many.high);
    CHECK(few.point == Approx(many.point).epsilon(1e-12));  // the point prediction is the profile as fitted
    CHECK(few.low < few.point);
    CHECK(few.point < few.high);
    CHECK(many.low < many.point);
    CHECK(many.point < many.high);
    // The same draws (seeds 1 to 20), half as spread: on the ideal network the time scales with the link's costs.
    CHECK(many.high - many.low == Approx((few.high - few.low) / 2).epsilon(1e-3));
}

TEST_CASE("simulate --uncertainty needs a profile that kept its standard errors", "[integration][profile]") {
    test::TempDir dir;
    const auto without_errors = simulate(dir, 0, {"--uncertainty", "5"});
    CHECK(without_errors.exit_code == 2);
    CHECK_THAT(without_errors.output, Catch::Contains("profile.json: --uncertainty: this profile kept no standard errors"));
    std::ofstream(dir.file("plain.yaml")) << test::quick_scenario("plain");
    const auto without_profile = test::run_dtsim({"simulate", dir.file("plain.yaml"), "--uncertainty", "5"});
    CHECK(without_profile.exit_code == 2);
    CHECK_THAT(without_profile.output, Catch::Contains("names no profile"));
}

}  // namespace prediction_interval_test
