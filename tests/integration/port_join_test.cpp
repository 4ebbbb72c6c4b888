// A push that joins a server port other pushes fill starts after TCP's slow start behind the full queue
// (tcp_join.hpp): closed forms on the ideal network with a profile that timed the loaded round trip.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "dtsim/tcp_join.hpp"
#include "test_support.hpp"

namespace port_join_test {

using namespace dtsim;

namespace {

constexpr double kBandwidth = 25e6;  // bytes/s: 200 Mbit/s
constexpr double kLatency = 50e-6;
constexpr double kLoadedRoundTrip = 0.1;

Profile profile(bool loaded) {
    auto p = test::pingpong_profile("port-join", LinkClass::inter_node, {{0, kLatency, kBandwidth}});
    if (loaded)
        p.network.push_back({NetworkOp::loaded_pingpong, TimingMode::latency, LinkClass::inter_node, 3, 3,
                             {{{0, kLoadedRoundTrip / 2, kUnboundedBytesPerSecond}}}, {}, {}});
    return p;
}

struct Setup {
    bool loaded = true;  // the profile timed the loaded round trip
    std::string sync = "async";
    double gradient_bytes = 1e6;
    int workers = 2;
    int servers = 1;
    int iterations = 1;
    double forward_s = 0;
    std::string bucket = "1GB";
    int layers = 1;
    std::string training_extra{};
};

Run simulate(const Setup& setup) {
    test::TempDir dir;
    const auto path = dir.file("profile.json");
    std::ofstream(path) << profile_to_json(profile(setup.loaded));
    const std::string yaml = "name: join\nprofile: " + path + "\ncluster: {nodes: " + std::to_string(setup.workers) +
                             ", gpus_per_node: 1, gpu: cpu, fabric: {topology: star}, network_model: ideal}\n"
                             "model: {gradient_bytes: " + std::to_string(setup.gradient_bytes) +
                             ", forward_time: " + std::to_string(setup.forward_s) + "s, backward_time: 0s, batch_per_gpu: 1, layers: " + std::to_string(setup.layers) + "}\n"
                             "training:\n  iterations: " + std::to_string(setup.iterations) +
                             "\n  strategy: {kind: parameter-server, servers: " + std::to_string(setup.servers) +
                             ", placement: dedicated, bucket: " + setup.bucket + ", aggregation_bandwidth: unlimited, sync: " + setup.sync + "}\n" +
                             setup.training_extra;
    return test::simulate_in_child(load_scenario_text(yaml, "join.yaml"));
}

// Slow start from the initial window, doubling per loaded round trip, until it carries half the port.
double ramp_to_half_port() { return kLoadedRoundTrip * std::log2(kBandwidth / 2 * kLoadedRoundTrip / kTcpInitialWindowBytes); }

double push_end(const Run& run, int rank, int bucket = 0) {
    for (const auto& span : run.spans)
        if (span.rank == rank && span.name == "push" && span.index == bucket) return span.end_s;
    FAIL("no push span on rank " << rank << " for bucket " << bucket);
    return 0;
}

}  // namespace

TEST_CASE("asynchronous pushes into one port: the second waits for the first, closed form", "[integration][port-join]") {
    const double bytes = 1e6;  // 40 ms alone; the joiner's ramp to half the port takes 0.64 s
    const double alone = kLatency + bytes / kBandwidth;
    const auto joined = simulate({.gradient_bytes = bytes});
    CHECK(push_end(joined, 0) == Approx(alone).epsilon(1e-6));
    CHECK(push_end(joined, 1) == Approx(2 * alone).epsilon(1e-6));
    // Without the loaded round trip the two share the port from the start.
    const auto shared = simulate({.loaded = false, .gradient_bytes = bytes});
    CHECK(push_end(shared, 0) == Approx(kLatency + 2 * bytes / kBandwidth).epsilon(1e-6));
    CHECK(push_end(shared, 1) == Approx(kLatency + 2 * bytes / kBandwidth).epsilon(1e-6));
}

TEST_CASE("a push that joins a long one shares the port once its window carries half", "[integration][port-join]") {
    const double bytes = 40e6;  // 1.6 s alone
    const double ramp = ramp_to_half_port();
    const auto run = simulate({.gradient_bytes = bytes});
    // The first flows alone until the second's latency has passed after its ramp, then both at half the port.
    const double first_end = ramp + kLatency + 2 * (bytes - ramp * kBandwidth) / kBandwidth;
    CHECK(push_end(run, 0) == Approx(first_end).epsilon(1e-6));
    // The second: its latency from the ramp's end, half the port until the first ends, then all of it.
    const double sent_by_then = (first_end - ramp - kLatency) * kBandwidth / 2;
    CHECK(push_end(run, 1) == Approx(first_end + (bytes - sent_by_then) / kBandwidth).epsilon(1e-6));
}

TEST_CASE("a worker's flows into two busy ports ramp up together: one ramp late, not two", "[integration][port-join]") {
    // Two servers take half of each 40 MB push. Worker 1, twice as slow, pushes 10 ms after worker 0, whose two
    // flows fill both ports at half of each (its own port splits between them); worker 1 joins both at half a
    // port, its two windows ramping at once, and then the ports carry all four flows at full rate.
    const double bytes = 40e6;
    const double alone = kLatency + bytes / kBandwidth;
    const double ramp = ramp_to_half_port();
    const auto run = simulate({.gradient_bytes = bytes, .servers = 2, .forward_s = 0.01,
                               .training_extra = "  fidelity: step\n  stragglers: {slowdown: [{ranks: [1], factor: 2}]}\n"});
    CHECK(push_end(run, 0) == Approx(0.01 + alone).epsilon(1e-6));
    CHECK(push_end(run, 1) == Approx(0.02 + ramp + alone).epsilon(1e-6));
}

TEST_CASE("a worker's next push that follows its last one is the same stream: it shares the port without a ramp", "[integration][port-join]") {
    // Two 20 MB buckets per worker. Worker 1 pushes first; worker 0, twice as slow, joins 10 ms later and
    // ramps. Each worker's second bucket sets off the moment its first one leaves: its connection is still
    // flowing, so it takes its half of the port at once, and the port never carries less than both workers.
    const double bucket = 20e6;
    const double half = kBandwidth / 2;
    const double ramp = ramp_to_half_port();
    const auto run = simulate({.gradient_bytes = 2 * bucket, .forward_s = 0.01, .bucket = "20MB", .layers = 2,
                               .training_extra = "  fidelity: step\n  stragglers: {slowdown: [{ranks: [0], factor: 2}]}\n"});
    const double joined = 0.02 + ramp + kLatency;                           // worker 0's first push flows
    const double alone_sent = (joined - 0.01 - kLatency) * kBandwidth;     // worker 1's bytes before it
    const double first_end = joined + (bucket - alone_sent) / half;        // worker 1's first push
    CHECK(push_end(run, 1, 0) == Approx(first_end).epsilon(1e-9));
    // Worker 0 is alone at the full rate while worker 1's second push is in its latency, then both at half.
    // Worker 0 has left what it did not send: as much as worker 1 had left (sent at half) and a latency alone.
    const double rest_0 = alone_sent - kLatency * kBandwidth;
    const double second_end = first_end + kLatency + rest_0 / half;         // worker 0's first push
    CHECK(push_end(run, 0, 0) == Approx(second_end).epsilon(1e-9));
    const double rest_1 = bucket - rest_0 - kLatency * kBandwidth;
    CHECK(push_end(run, 1, 1) == Approx(second_end + kLatency + rest_1 / half).epsilon(1e-9));
    // Every byte of the four pushes through the port back to back.
    CHECK(push_end(run, 0, 1) == Approx(0.01 + kLatency + 4 * bucket / kBandwidth).epsilon(1e-9));
}

TEST_CASE("synchronous pushes keep the port's incast model: the loaded round trip changes nothing", "[integration][port-join]") {
    CHECK(simulate({.sync = "sync"}).summary.iteration_time_s == simulate({.loaded = false, .sync = "sync"}).summary.iteration_time_s);
}

TEST_CASE("pushes and sends waiting at a port end with the node that fails", "[integration][port-join][faults]") {
    // Three workers push 1 MB (40 ms) each into one port; node 1 fails while two of them wait to join.
    const auto run = simulate({.workers = 3, .iterations = 4,
                               .training_extra = "  stragglers: {node_failure: {node: 1, at: 10ms, recovery: drop}}\n"});
    CHECK(run.iterations.size() == 4);
    CHECK(run.summary.iteration_time_s > 0);
}

}  // namespace port_join_test
