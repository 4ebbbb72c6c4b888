// NCCL's latencies calibrated from measured collectives (core/src/nccl_calibration.cpp): measurements made by the
// model itself with known factors on its latencies give those factors back; NCCL's choice stays its own model's.
#include <catch2/catch.hpp>

#include <vector>

#include "dtsim/nccl_calibration.hpp"
#include "dtsim/nccl_call_costs.hpp"
#include "nccl_calls.hpp"

namespace nccl_calibration_test {

using namespace dtsim;

namespace {

constexpr double kLaunch = 5e-6, kRoute = 2e-6;


// What the simulator charges a call alone with `latency` and `bandwidth` on NCCL's latencies and bytes' time: the
// measurement a perfect model makes.
NcclMeasurement measured(int nodes, double bytes, const std::array<double, 3>& latency, const std::array<double, 3>& bandwidth = {1, 1, 1}) {
    auto parameters = nccl_defaults();
    parameters.latency_scale = latency;
    parameters.bandwidth_scale = bandwidth;
    // 8 GPUs per node on a 100 GB/s link without NVLS, 8 NICs of 25 GB/s across nodes.
    const auto call = test::whole_nodes_allreduce(nodes, bytes, 100e9, 25e9, 0);
    const int channels = nodes > 1 ? 8 : 1;
    const auto choice = choose_nccl(parameters, call, {});
    const auto charged = nccl_call_costs(parameters, call, choice, channels, std::nullopt);
    return {call, channels, kRoute, kLaunch + kRoute + charged.latency_s + charged.fill_s + charged.bottleneck_s};
}

std::vector<NcclMeasurement> sweep(const std::array<double, 3>& latency, const std::array<double, 3>& bandwidth) {
    std::vector<NcclMeasurement> measurements;
    for (int nodes : {1, 2, 4})
        for (double bytes = 1024; bytes <= 1.1e9; bytes *= 2) measurements.push_back(measured(nodes, bytes, latency, bandwidth));
    return measurements;
}

}  // namespace

TEST_CASE("nccl calibration: each protocol's latency and bandwidth factors come back from measurements that have them", "[unit][nccl]") {
    const std::array<double, 3> latency{2.5, 1.5, 3.0}, bandwidth{1.0, 1.3, 1.15};
    const auto measurements = sweep(latency, bandwidth);
    const auto calibration = calibrate_nccl(nccl_defaults(), measurements, kLaunch);
    for (size_t p = 0; p < 3; ++p) {
        CAPTURE(p);
        CHECK(calibration.measurements[p] > 0);
        CHECK(calibration.parameters.latency_scale[p] == Approx(latency[p]).epsilon(1e-6));
        if (calibration.bandwidth_fitted[p]) CHECK(calibration.parameters.bandwidth_scale[p] == Approx(bandwidth[p]).epsilon(1e-6));
    }
    // LL128 and Simple run sizes whose bytes weigh; LL's largest are a few hundred KB, latency-bound or nearly.
    CHECK(calibration.bandwidth_fitted[1]);
    CHECK(calibration.bandwidth_fitted[2]);
    // NCCL's choice is its published model's: the calibrated parameters choose as the published ones do.
    for (const auto& m : measurements) {
        const auto published = choose_nccl(nccl_defaults(), m.call, {}), calibrated = choose_nccl(calibration.parameters, m.call, {});
        CHECK((published.algorithm == calibrated.algorithm && published.protocol == calibrated.protocol));
    }
}

TEST_CASE("nccl calibration: a calibrated bandwidth factor is what the charged call's bytes take", "[unit][nccl]") {
    auto parameters = nccl_defaults();
    parameters.bandwidth_scale = {1, 1, 1.25};
    const auto call = test::whole_nodes_allreduce(2, 1e9, 100e9, 25e9, 0);
    const auto choice = choose_nccl(parameters, call, {});
    REQUIRE(choice.protocol == NcclProtocol::simple);
    const auto plain = nccl_call_costs(nccl_defaults(), call, choice, 8, std::nullopt);
    const auto slowed = nccl_call_costs(parameters, call, choice, 8, std::nullopt);
    CHECK(slowed.bottleneck_s == Approx(1.25 * plain.bottleneck_s));
    CHECK(slowed.fill_s == Approx(1.25 * plain.fill_s));
    CHECK(slowed.latency_s == Approx(plain.latency_s));
    CHECK(slowed.bandwidth_scale == 1.25);
}

TEST_CASE("nccl calibration: a protocol nothing ran keeps NCCL's latencies, and a factor is never negative", "[unit][nccl]") {
    // One node, small sizes only: the ring runs LL; LL128 and Simple keep 1. Latency-bound sizes fit no bandwidth.
    std::vector<NcclMeasurement> small;
    for (double bytes = 1024; bytes <= 65536; bytes *= 2) small.push_back(measured(1, bytes, {4, 1, 1}));
    auto calibration = calibrate_nccl(nccl_defaults(), small, kLaunch);
    CHECK(calibration.parameters.latency_scale[0] == Approx(4).epsilon(1e-9));
    CHECK_FALSE(calibration.bandwidth_fitted[0]);
    CHECK(calibration.parameters.bandwidth_scale[0] == 1);
    CHECK(calibration.measurements[1] == 0);
    CHECK(calibration.measurements[2] == 0);
    CHECK(calibration.parameters.latency_scale[1] == 1);
    CHECK(calibration.parameters.latency_scale[2] == 1);
    // Calls faster than their launch and bandwidth alone leave no latency.
    for (auto& m : small) m.seconds = kLaunch;
    calibration = calibrate_nccl(nccl_defaults(), small, kLaunch);
    CHECK(calibration.parameters.latency_scale[0] == 0);
    // Measurements with no latency beyond their bytes' time: the latency factor is 0 and the bandwidth's takes it all.
    auto large = sweep({0, 0, 0}, {1, 1, 2});
    calibration = calibrate_nccl(nccl_defaults(), large, kLaunch);
    CHECK(calibration.parameters.latency_scale[2] == Approx(0).margin(1e-6));
    CHECK(calibration.parameters.bandwidth_scale[2] == Approx(2).epsilon(1e-6));
}

}  // namespace nccl_calibration_test
