// Faults and their mitigation (training.stragglers.link_degradation and .node_failure,
// training.strategy.backup_workers), against closed forms with the ideal network model: 4 one-GPU
// nodes on a star, 30 ms forward + 60 ms backward, 100 MB of gradients in one bucket, 100 Gb/s, 5 us.
#include <catch2/catch.hpp>

#include <numeric>

#include "test_support.hpp"

namespace fault_test {

using namespace dtsim;

namespace {

constexpr double kCompute = 0.090;
constexpr double kBytes = 100e6;
constexpr double kBandwidth = 100e9 / 8;
constexpr double kLatency = 5e-6;
const std::string kRing = "{kind: allreduce, algorithm: ring, bucket: 1GB}";
const std::string kSyncPs = "{kind: parameter-server, servers: 1, sync: sync, bucket: 1GB, aggregation_bandwidth: unlimited";

double ring_iteration(int n) { return kCompute + 2.0 * (n - 1) * kLatency + 2.0 * (n - 1) / n * kBytes / kBandwidth; }
double ps_iteration(int workers) { return kCompute + 2 * (workers * kBytes / kBandwidth + kLatency); }

Run simulate_with(const std::string& strategy, const std::string& stragglers, int iterations, const std::string& cluster_extra = "") {
    const std::string yaml =
        "name: faults\ncluster: {nodes: 4, gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 100Gbps, latency: 5us}, "
        "fabric: {topology: star}, network_model: ideal" + cluster_extra + "}\n"
        "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}\n"
        "training:\n  iterations: " + std::to_string(iterations) + "\n  strategy: " + strategy + "\n  stragglers: " + stragglers + "\n";
    return test::simulate_in_child(load_scenario_text(yaml, "faults.yaml"));
}

double total_time(const Run& run) {
    return std::accumulate(run.iterations.begin(), run.iterations.end(), 0.0,
                           [](double sum, const IterationRecord& it) { return sum + it.time_s; });
}

bool has_span(const Run& run, const std::string& name) {
    return std::any_of(run.spans.begin(), run.spans.end(), [&](const Span& span) { return span.name == name; });
}

}  // namespace

TEST_CASE("a NIC degraded for a window slows exactly the transfers inside it", "[integration][faults]") {
    // Iteration 1's all-reduce runs in [0.192, 0.216] s, inside the window; iterations 0 and 2 are outside.
    const auto run = simulate_with(kRing, "{link_degradation: [{node: 1, nic: 0, fraction: 0.5, start: 150ms, end: 250ms}]}", 3);
    REQUIRE(run.iterations.size() == 3);
    const double nominal = ring_iteration(4);
    CHECK(run.iterations[0].time_s == Approx(nominal).epsilon(1e-7));
    // Every ring step crosses node 1's NIC one way or the other: each runs at half the bandwidth.
    CHECK(run.iterations[1].time_s == Approx(nominal + 1.5 * kBytes / kBandwidth).epsilon(1e-7));
    CHECK(run.iterations[2].time_s == Approx(nominal).epsilon(1e-7));
}

TEST_CASE("a GPU's intra-node link degraded for the whole run slows the ring to its bandwidth", "[integration][faults]") {
    const std::string yaml =
        "name: intra\ncluster: {nodes: 1, gpus_per_node: 2, gpu: h100-sxm, intra_node: {bandwidth: 100GB/s, latency: 2us},"
        " nic: {bandwidth: 100Gbps, latency: 5us}, fabric: {topology: star}, network_model: ideal}\n"
        "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}\n"
        "training:\n  iterations: 2\n  strategy: " + kRing + "\n  stragglers: {link_degradation: [{rank: 1, fraction: 0.25}]}\n";
    const auto run = test::simulate_in_child(load_scenario_text(yaml, "intra.yaml"));
    // Two ring steps of S/2 each cross GPU 1's link in one direction, at a quarter of 100 GB/s.
    CHECK(run.summary.iteration_time_s == Approx(kCompute + 2 * 2e-6 + kBytes / (0.25 * 100e9)).epsilon(1e-7));
}

TEST_CASE("a node failure with restart loses exactly the work since the last checkpoint", "[integration][faults]") {
    const std::string checkpoints = "checkpoint_interval: 3, checkpoint_cost: 50ms, restart_cost: 1s}}";
    const std::string failing = "{node_failure: {node: 2, at: 700ms, recovery: restart-from-checkpoint, " + checkpoints;
    const std::string never = "{node_failure: {node: 2, at: 1000s, recovery: restart-from-checkpoint, " + checkpoints;
    const auto healthy = simulate_with(kRing, never, 10);
    const auto failed = simulate_with(kRing, failing, 10);
    const double t = ring_iteration(4);
    // Checkpoints after iterations 2, 5 and 8 (none after the last).
    CHECK(total_time(healthy) == Approx(10 * t + 3 * 0.050).epsilon(1e-7));
    CHECK(healthy.summary.checkpoint_s == Approx(3 * 0.050));
    CHECK(healthy.summary.lost_work_s == 0);
    // At 0.7 s the checkpoint after iteration 5 (written until 6t + 0.1 s = 0.712 s) is not done: the job
    // restarts from the one written at 3t + 0.05 s.
    const double lost = 0.700 - (3 * t + 0.050);
    CHECK(failed.summary.lost_work_s == Approx(lost).epsilon(1e-7));
    CHECK(failed.summary.restart_s == Approx(1.0));
    CHECK(total_time(failed) == Approx(total_time(healthy) + lost + 1.0).epsilon(1e-7));
    // The iterations after the restarted ones are as before.
    CHECK(failed.iterations[8].time_s == Approx(t).epsilon(1e-7));
    CHECK(has_span(failed, "lost work"));
    CHECK(has_span(failed, "restart"));
    CHECK(has_span(failed, "checkpoint"));
    CHECK(has_span(failed, "lost: forward"));
    for (const auto& span : failed.spans)
        if (span.iteration == -1) CHECK(span.end_s <= 0.700 + 1e-12);
}

TEST_CASE("restart from a checkpoint costs the same lost work with a parameter server and timed checkpoints",
          "[integration][faults]") {
    // Timed checkpoints: after the first iteration ending 0.4 s after the previous checkpoint (or the start).
    const std::string checkpoints = "checkpoint_interval: 400ms, checkpoint_cost: 20ms, restart_cost: 500ms}}";
    const auto healthy = simulate_with(kSyncPs + "}", "{node_failure: {node: 1, at: 1000s, recovery: restart-from-checkpoint, " + checkpoints, 8);
    const auto failed = simulate_with(kSyncPs + "}", "{node_failure: {node: 1, at: 800ms, recovery: restart-from-checkpoint, " + checkpoints, 8);
    const double t = ps_iteration(4);  // 0.154 s: checkpoints after iterations 2 (0.462 s) and 5 (0.944 s)
    CHECK(total_time(healthy) == Approx(8 * t + 2 * 0.020).epsilon(1e-7));
    const double lost = 0.800 - (3 * t + 0.020);
    CHECK(failed.summary.lost_work_s == Approx(lost).epsilon(1e-7));
    CHECK(total_time(failed) == Approx(total_time(healthy) + lost + 0.500).epsilon(1e-7));
}

TEST_CASE("with recovery: drop the ring re-forms over the survivors", "[integration][faults]") {
    // Node 3 fails during iteration 2's compute; the three others redo iteration 2 after 100 ms.
    const auto run = simulate_with(kRing, "{node_failure: {node: 3, at: 250ms, recovery: drop, restart_cost: 100ms}}", 6);
    REQUIRE(run.iterations.size() == 6);
    const double t4 = ring_iteration(4), t3 = ring_iteration(3);
    CHECK(run.iterations[1].time_s == Approx(t4).epsilon(1e-7));
    CHECK(run.iterations[2].time_s == Approx(0.250 + 0.100 + t3 - 2 * t4).epsilon(1e-7));
    for (int i = 3; i < 6; ++i) CHECK(run.iterations[static_cast<size_t>(i)].time_s == Approx(t3).epsilon(1e-7));
    CHECK(run.summary.lost_work_s == Approx(0.250 - 2 * t4).epsilon(1e-7));
    // Throughput over iterations 1-5: four workers' gradients in iteration 1, three's after.
    const double measured = run.summary.iteration_time_s * 5;
    CHECK(run.summary.samples_per_s == Approx((4 + 4 * 3) * 32 / measured));
    // No span of rank 3 after the failure.
    for (const auto& span : run.spans)
        if (span.rank == 3) CHECK(span.end_s <= 0.250 + 1e-12);
}

TEST_CASE("with recovery: drop a synchronous parameter server serves the survivors", "[integration][faults]") {
    // Node 0 fails during iteration 1's pulls (it would end at 0.308 s); the others redo iteration 1 at once.
    const auto run = simulate_with(kSyncPs + "}", "{node_failure: {node: 0, at: 300ms, recovery: drop}}", 6);
    const double t4 = ps_iteration(4), t3 = ps_iteration(3);
    CHECK(run.iterations[0].time_s == Approx(t4).epsilon(1e-7));
    CHECK(run.iterations[1].time_s == Approx(0.300 + t3 - t4).epsilon(1e-7));
    for (int i = 2; i < 6; ++i) CHECK(run.iterations[static_cast<size_t>(i)].time_s == Approx(t3).epsilon(1e-7));
    CHECK(run.summary.lost_work_s == Approx(0.300 - t4).epsilon(1e-7));
}

TEST_CASE("one backup worker hides one straggler from synchronous all-reduce", "[integration][faults]") {
    const std::string straggler = "{slowdown: [{ranks: [2], factor: 2}]}";
    const auto strict = simulate_with("{kind: allreduce, algorithm: ring, bucket: 1GB, backup_workers: 0}", straggler, 6);
    const auto backed = simulate_with("{kind: allreduce, algorithm: ring, bucket: 1GB, backup_workers: 1}", straggler, 6);
    // b = 0: every step waits for the straggler's compute.
    CHECK(strict.summary.iteration_time_s >= 2 * kCompute);
    CHECK(strict.summary.iteration_time_s == Approx(2 * kCompute + ring_iteration(4) - kCompute).epsilon(1e-7));
    // b = 1: the three others all-reduce among themselves; the straggler's late result transfers share
    // the first rank's NIC now and then, hence "about".
    CHECK(backed.summary.iteration_time_s >= ring_iteration(3) * (1 - 1e-7));
    CHECK(backed.summary.iteration_time_s == Approx(ring_iteration(3)).epsilon(0.01));
    CHECK(has_span(backed, "late: receive result"));
    // Throughput counts the gradients applied: three workers' per step.
    CHECK(backed.summary.samples_per_s == Approx(3 * 32 / backed.summary.iteration_time_s));
    // Every rank still finishes every iteration.
    for (const auto& span : backed.spans) CHECK(span.iteration >= 0);
}

TEST_CASE("one backup worker hides one straggler from a synchronous parameter server", "[integration][faults]") {
    const std::string straggler = "{slowdown: [{ranks: [2], factor: 2}]}";
    const auto strict = simulate_with(kSyncPs + "}", straggler, 6);
    const auto backed = simulate_with(kSyncPs + ", backup_workers: 1}", straggler, 6);
    CHECK(strict.summary.iteration_time_s >= 2 * kCompute);
    CHECK(backed.summary.iteration_time_s < 2 * kCompute);
    // The server's link carries the straggler's late push and pull too, now and then: 0.142 s here.
    CHECK(backed.summary.iteration_time_s >= ps_iteration(3) * (1 - 1e-7));
    CHECK(backed.summary.iteration_time_s == Approx(ps_iteration(3)).epsilon(0.05));
}

TEST_CASE("backup workers without a straggler change nothing but who is late", "[integration][faults]") {
    const auto strict = simulate_with(kRing, "{}", 4);
    const auto backed = simulate_with("{kind: allreduce, algorithm: ring, bucket: 1GB, backup_workers: 1}", "{}", 4);
    CHECK(backed.summary.iteration_time_s <= strict.summary.iteration_time_s * 1.05);
}

TEST_CASE("a degraded rail up-link slows cross-rail traffic only", "[integration][faults]") {
    auto simulate_rails = [](const std::string& algorithm, const std::string& stragglers) {
        const std::string yaml =
            "name: rails\ncluster: {nodes: 2, gpus_per_node: 2, gpu: h100-sxm, intra_node: {bandwidth: 400GB/s, latency: 1us},"
            " nic: {count: 2, bandwidth: 100Gbps, latency: 5us}, fabric: {topology: rail-optimized}, network_model: ideal}\n"
            "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}\n"
            "training:\n  iterations: 2\n  strategy: {kind: allreduce, algorithm: " + algorithm + ", bucket: 1GB}\n  stragglers: " +
            stragglers + "\n";
        return test::simulate_in_child(load_scenario_text(yaml, "rails.yaml")).summary.iteration_time_s;
    };
    const std::string degraded = "{link_degradation: [{rail_uplink: 0, fraction: 0.1}]}";
    // The flat ring goes from GPU 1 (rail 1) of node 0 to GPU 2 (rail 0) of node 1: across the spine.
    CHECK(simulate_rails("ring", degraded) > 1.5 * simulate_rails("ring", "{}"));
    // The hierarchical all-reduce keeps inter-node traffic on each GPU's own rail.
    CHECK(simulate_rails("hierarchical", degraded) == Approx(simulate_rails("hierarchical", "{}")).epsilon(1e-12));
}

}  // namespace fault_test
