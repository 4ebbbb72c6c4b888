// Closed forms of the collective algorithms with the ideal network model on a star: one GPU per node,
// each with its own full-duplex link of bandwidth B and one-way host-to-host latency L to a
// non-blocking switch; S bytes in one bucket, zero compute, one iteration.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "test_support.hpp"

namespace collectives_test {

using namespace dtsim;

namespace {

constexpr double kBytes = 100e6;
constexpr double kBandwidth = 100e9 / 8;  // 100Gbps
constexpr double kLatency = 5e-6;
constexpr double kSeconds = kBytes / kBandwidth;  // S/B

std::string scenario_text(int nodes, const std::string& fidelity, const std::string& algorithm = "ring") {
    return test::closed_form_scenario(nodes, "{kind: allreduce, algorithm: " + algorithm + ", bucket: 1GB}", fidelity,
                                      kBytes, "100Gbps", "5us");
}

double allreduce_time(int nodes, const std::string& algorithm, const std::string& fidelity = "step") {
    const auto scenario = load_scenario_text(scenario_text(nodes, fidelity, algorithm), "collectives.yaml");
    return test::simulate_in_child(scenario).summary.iteration_time_s;
}

double relative_error(double value, double expected) { return std::fabs(value / expected - 1); }

int log2_floor(int n) {
    int log = 0;
    while ((2 << log) <= n) ++log;
    return log;
}

}  // namespace

TEST_CASE("double binary tree all-reduce matches its critical path", "[integration][collectives]") {
    // Without pipelining each tree moves S/2 per message. For n = 2^D, every interior node but the root
    // has two children, and both trees use disjoint links at every moment (NCCL's mirrored tree makes
    // one tree's interior nodes the other's leaves). Reduce: D-1 hops into a node whose link takes two
    // children's halves at once (L + S/B each), then one hop into the root (L + S/(2B)); the broadcast
    // mirrors it with the parent's link shared by its two children. T = 2DL + (2D-1) S/B.
    auto power_of_two = [](int d) { return 2.0 * d * kLatency + (2.0 * d - 1) * kSeconds; };
    // n = 3: two chains (0-2-1 and 1-0-2), every hop L + S/(2B). n = 6: 1 and 3 feed 2 at once, 2 feeds
    // 4, which heard from the leaf 5 long before, 4 feeds 0; 0 feeds 4, 4 feeds 2 and 5 at once, 2 feeds
    // 1 and 3 at once. Three of the six hops are shared: 6L + 4.5 S/B.
    const auto [n, fidelity, expected] = GENERATE_COPY(table<int, std::string, double>(
        {{2, "step", power_of_two(1)}, {4, "step", power_of_two(2)}, {8, "step", power_of_two(3)},
         {16, "step", power_of_two(4)}, {8, "flow", power_of_two(3)}, {3, "step", 4 * kLatency + 2 * kSeconds},
         {6, "step", 6 * kLatency + 4.5 * kSeconds}}));
    CAPTURE(n, fidelity);
    const double simulated = allreduce_time(n, "tree", fidelity);
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("halving-doubling all-reduce matches 2 log2(p) L + 2(p-1)/p S/B, plus a fold when n is not p",
          "[integration][collectives]") {
    const auto [n, fidelity] = GENERATE(table<int, std::string>(
        {{2, "step"}, {4, "step"}, {8, "step"}, {16, "step"}, {8, "flow"}, {3, "step"}, {6, "step"}, {12, "step"}}));
    CAPTURE(n, fidelity);
    // p = the largest power of two not above n; the n - p extra ranks each hand their whole vector to a
    // partner first and get the result back last, on disjoint pairs of links: 2(L + S/B) more.
    const int log_p = log2_floor(n);
    const double p = 1 << log_p;
    const double fold = n == p ? 0 : 2 * (kLatency + kSeconds);
    const double expected = 2 * log_p * kLatency + 2 * (p - 1) / p * kSeconds + fold;
    const double simulated = allreduce_time(n, "halving-doubling", fidelity);
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("direct all-reduce matches 2(L + (n-1)/n S/B)", "[integration][collectives]") {
    // A rank's link carries its n-1 shares of S/n at once, each at B/(n-1), in both phases.
    const auto [n, fidelity] = GENERATE(table<int, std::string>(
        {{2, "step"}, {4, "step"}, {8, "step"}, {16, "step"}, {8, "flow"}, {3, "step"}, {6, "step"}}));
    CAPTURE(n, fidelity);
    const double expected = 2 * (kLatency + (n - 1.0) / n * kSeconds);
    const double simulated = allreduce_time(n, "direct", fidelity);
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("ring all-gather, ring reduce-scatter and binomial broadcast match their closed forms",
          "[integration][collectives]") {
    const auto fidelity = GENERATE(as<std::string>{}, "step", "flow");
    CAPTURE(fidelity);
    const int world = 16;
    const std::vector<int> sizes{2, 3, 4, 6, 8, 16};
    std::vector<sim::CollectiveTrial> trials;
    for (const auto op : {NetworkOp::allgather, NetworkOp::reducescatter, NetworkOp::broadcast})
        for (int n : sizes) trials.push_back({op, kBytes, n});
    const auto scenario = load_scenario_text(scenario_text(world, fidelity), "replay.yaml");
    const auto times = test::simulate_collectives_in_child(scenario, trials);
    // Broadcast: position p feeds p + 1, p + 2, p + 4 ... below its lowest set bit at once over its own
    // link. The critical path runs through the nodes with the most children: for n = 2^k, k hops
    // feeding k, k-1 ... 1 children, kL + k(k+1)/2 S/B; for n = 3, L + 2 S/B; n = 6, 2L + 4 S/B.
    auto broadcast = [](int n) {
        if (n == 3) return kLatency + 2 * kSeconds;
        if (n == 6) return 2 * kLatency + 4 * kSeconds;
        const int k = log2_floor(n);
        return k * kLatency + k * (k + 1) / 2.0 * kSeconds;
    };
    for (size_t i = 0; i < trials.size(); ++i) {
        const auto& trial = trials[i];
        const int n = trial.ranks;
        const double expected = trial.op == NetworkOp::broadcast ? broadcast(n) : (n - 1) * (kLatency + kSeconds / n);
        CAPTURE(to_string(trial.op), n, times[i], expected);
        CHECK(relative_error(times[i], expected) <= 1e-6);
    }
}

TEST_CASE("on one rank every all-reduce algorithm has nothing to exchange", "[integration][collectives]") {
    for (const std::string algorithm : {"tree", "halving-doubling", "direct"}) {
        CAPTURE(algorithm);
        CHECK(allreduce_time(1, algorithm) == 0);
    }
}

}  // namespace collectives_test
