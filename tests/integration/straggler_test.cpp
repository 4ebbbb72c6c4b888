// training.stragglers: slow ranks, jitter and pauses, seeded.
#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace straggler_test {

using namespace dtsim;

namespace {

// 4 one-GPU nodes, 30 ms forward + 60 ms backward, 100 MB of gradients on 100 Gb/s.
Run simulate_with(const std::string& strategy, const std::string& stragglers, std::uint64_t seed = 1, int iterations = 6) {
    const std::string yaml =
        "name: stragglers\nseed: " + std::to_string(seed) +
        "\ncluster: {nodes: 4, gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 100Gbps, latency: 5us},"
        " fabric: {topology: star}, network_model: ideal}\n"
        "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}\n"
        "training:\n  iterations: " + std::to_string(iterations) + "\n  strategy: " + strategy +
        "\n  stragglers: " + stragglers + "\n";
    return test::simulate_in_child(load_scenario_text(yaml, "stragglers.yaml"));
}

const std::string kRing = "{kind: allreduce, algorithm: ring, bucket: 25MB}";

}  // namespace

TEST_CASE("a straggler at slowdown k makes a synchronous iteration at least k times its compute",
          "[integration][stragglers]") {
    for (double k : {1.5, 3.0}) {
        CAPTURE(k);
        const auto run = simulate_with(kRing, "{slowdown: [{ranks: [2], factor: " + std::to_string(k) + "}]}");
        CHECK(run.summary.iteration_time_s >= k * 0.090 * (1 - 1e-9));
        // Only rank 2's compute is longer.
        double rank2 = 0, rank0 = 0;
        for (const auto& span : run.spans) {
            if (span.iteration != 1 || span.lane != Lane::compute) continue;
            if (span.rank == 2) rank2 += span.end_s - span.start_s;
            if (span.rank == 0) rank0 += span.end_s - span.start_s;
        }
        CHECK(rank2 == Approx(k * 0.090));
        CHECK(rank0 == Approx(0.090));
    }
}

TEST_CASE("with a straggler, async parameter servers out-train synchronous ones", "[integration][stragglers]") {
    const std::string slow = "{slowdown: [{ranks: [0], factor: 2}]}";
    const auto sync = simulate_with("{kind: parameter-server, servers: 2, sync: sync}", slow);
    const auto async = simulate_with("{kind: parameter-server, servers: 2, sync: async}", slow);
    CHECK(async.summary.samples_per_s >= sync.summary.samples_per_s);
    CHECK(async.summary.samples_per_s > 1.2 * sync.summary.samples_per_s);  // the others do not wait for rank 0
    CHECK(async.summary.worker_samples_per_s_max > 1.5 * async.summary.worker_samples_per_s_min);
    // SSP sits in between: the fast workers may run ahead by at most the bound.
    const auto ssp = simulate_with("{kind: parameter-server, servers: 2, sync: ssp, staleness: 1}", slow);
    CHECK(ssp.summary.samples_per_s >= sync.summary.samples_per_s * (1 - 1e-9));
    CHECK(ssp.summary.samples_per_s <= async.summary.samples_per_s * (1 + 1e-9));
}

TEST_CASE("jitter is reproducible with a seed and differs between seeds", "[integration][stragglers]") {
    const std::string jitter = "{jitter: {distribution: lognormal, sigma: 0.2}}";
    const auto a = simulate_with(kRing, jitter, 7);
    const auto b = simulate_with(kRing, jitter, 7);
    const auto c = simulate_with(kRing, jitter, 8);
    CHECK(a.iterations == b.iterations);
    CHECK(a.spans == b.spans);
    CHECK(a.iterations != c.iterations);
    for (const auto& distribution : {"{distribution: exponential, mean: 5ms}", "{distribution: empirical, values: [1.0, 1.5]}"}) {
        CAPTURE(distribution);
        const auto x = simulate_with(kRing, std::string("{jitter: ") + distribution + "}", 3);
        const auto y = simulate_with(kRing, std::string("{jitter: ") + distribution + "}", 4);
        CHECK(x.spans != y.spans);  // per-rank compute differs (the slowest rank may not)
        CHECK(x.summary.iteration_time_s > 0.090);
    }
}

TEST_CASE("a pause stalls the rank for its duration", "[integration][stragglers]") {
    const auto nominal = simulate_with(kRing, "{}");
    const auto paused = simulate_with(kRing, "{pause: {probability: 1, duration: 40ms}}");
    CHECK(paused.summary.iteration_time_s == Approx(nominal.summary.iteration_time_s + 0.040));
}

}  // namespace straggler_test
