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


// What the simulator charges a call alone with `scale` on NCCL's latencies: the measurement a perfect model makes.
NcclMeasurement measured(int nodes, double bytes, const std::array<double, 3>& scale) {
    auto parameters = nccl_defaults();
    parameters.latency_scale = scale;
    // 8 GPUs per node on a 100 GB/s link without NVLS, 8 NICs of 25 GB/s across nodes.
    const auto call = test::whole_nodes_allreduce(nodes, bytes, 100e9, 25e9, 0);
    const int channels = nodes > 1 ? 8 : 1;
    const auto choice = choose_nccl(parameters, call, {});
    const auto charged = nccl_call_costs(parameters, call, choice, channels, std::nullopt);
    return {call, channels, kRoute, kLaunch + kRoute + charged.latency_s + charged.fill_s + charged.bottleneck_s};
}

}  // namespace

TEST_CASE("nccl calibration: each protocol's latency factor comes back from measurements that have it", "[unit][nccl]") {
    const std::array<double, 3> truth{2.5, 1.5, 3.0};
    std::vector<NcclMeasurement> measurements;
    for (int nodes : {1, 2, 4})
        for (double bytes = 1024; bytes <= 1.1e9; bytes *= 4) measurements.push_back(measured(nodes, bytes, truth));
    const auto calibration = calibrate_nccl_latencies(nccl_defaults(), measurements, kLaunch);
    for (size_t p = 0; p < 3; ++p) {
        CAPTURE(p);
        CHECK(calibration.measurements[p] > 0);
        CHECK(calibration.parameters.latency_scale[p] == Approx(truth[p]).epsilon(1e-9));
    }
    // NCCL's choice is its published model's: the calibrated parameters choose as the published ones do.
    for (const auto& m : measurements) {
        const auto published = choose_nccl(nccl_defaults(), m.call, {}), calibrated = choose_nccl(calibration.parameters, m.call, {});
        CHECK((published.algorithm == calibrated.algorithm && published.protocol == calibrated.protocol));
    }
}

TEST_CASE("nccl calibration: a protocol nothing ran keeps NCCL's latencies, and a factor is never negative", "[unit][nccl]") {
    // One node, small sizes only: the ring runs LL; LL128 and Simple keep 1.
    std::vector<NcclMeasurement> small;
    for (double bytes = 1024; bytes <= 65536; bytes *= 2) small.push_back(measured(1, bytes, {4, 1, 1}));
    auto calibration = calibrate_nccl_latencies(nccl_defaults(), small, kLaunch);
    CHECK(calibration.parameters.latency_scale[0] == Approx(4).epsilon(1e-9));
    CHECK(calibration.measurements[1] == 0);
    CHECK(calibration.measurements[2] == 0);
    CHECK(calibration.parameters.latency_scale[1] == 1);
    CHECK(calibration.parameters.latency_scale[2] == 1);
    // Calls faster than their launch and bandwidth alone leave no latency.
    for (auto& m : small) m.seconds = kLaunch;
    calibration = calibrate_nccl_latencies(nccl_defaults(), small, kLaunch);
    CHECK(calibration.parameters.latency_scale[0] == 0);
}

}  // namespace nccl_calibration_test
