// Training-loop features in whole simulations: gradient accumulation, waits on the slowest worker inside
// a synchronous all-reduce, and gradient compression with parameter servers.
#include <catch2/catch.hpp>

#include <map>

#include "dtsim/cost_model.hpp"
#include "dtsim/sim/compression.hpp"
#include "test_support.hpp"

namespace training_loop_test {

using namespace dtsim;

namespace {

constexpr int kNodes = 4;
constexpr double kForward = 0.030, kBackward = 0.060, kGradientBytes = 100e6;
constexpr double kLink = 100e9 / 8, kLatency = 5e-6;

// 4 one-GPU nodes on an ideal 100 Gb/s star, 30 ms forward + 60 ms backward, 100 MB of gradients.
Scenario scenario_with(const std::string& strategy, const std::vector<std::string>& overrides, int layers = 1) {
    auto all = overrides;
    all.insert(all.begin(), {"model={gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 8, "
                             "layers: " + std::to_string(layers) + "}",
                             "training.iterations=3"});
    return load_scenario_text(test::closed_form_scenario(kNodes, strategy, "step", kGradientBytes, "100Gbps", "5us"),
                              "loop.yaml", all);
}

// Ring all-reduce of the whole gradient over the 4 ranks: 2(N−1)(L + S/(N·B)).
double ring_allreduce_s() { return 2 * (kNodes - 1) * (kLatency + kGradientBytes / kNodes / kLink); }

const std::string kRingOneBucket = "{kind: allreduce, algorithm: ring, bucket: 1GB}";

// Sum of span durations per (rank, lane name) in one iteration.
std::map<std::pair<int, std::string>, double> time_by_rank_and_name(const Run& run, int iteration) {
    std::map<std::pair<int, std::string>, double> total;
    for (const auto& span : run.spans)
        if (span.iteration == iteration) total[{span.rank, span.name}] += span.end_s - span.start_s;
    return total;
}

double bytes_of(const Run& run, int rank, const std::string& name) {
    double bytes = 0;
    for (const auto& span : run.spans)
        if (span.rank == rank && span.name == name) bytes += span.bytes;
    return bytes;
}

}  // namespace

TEST_CASE("gradient accumulation: k micro-batches, one synchronisation, k × batch samples", "[integration][accumulation]") {
    const int k = GENERATE(1, 4);
    CAPTURE(k);
    const auto run = test::simulate_in_child(scenario_with(kRingOneBucket, {"training.accumulation_steps=" + std::to_string(k)}));
    // One bucket is ready when the last micro-batch's backward ends: nothing overlaps.
    const double expected = k * (kForward + kBackward) + ring_allreduce_s();
    CHECK(run.summary.iteration_time_s == Approx(expected).epsilon(1e-9));
    CHECK(run.summary.samples_per_s == Approx(kNodes * k * 8 / expected).epsilon(1e-9));
    CHECK(run.summary.speedup == Approx(kNodes * k * (kForward + kBackward) / expected).epsilon(1e-9));
    CHECK(run.summary.compute_time_s == Approx(k * (kForward + kBackward)).epsilon(1e-9));
    int allreduces = 0;
    for (const auto& span : run.spans) allreduces += span.rank == 0 && span.name == "allreduce";
    CHECK(allreduces == 3);  // once per iteration, whatever k
}

TEST_CASE("training.optimizer steps once per iteration, after the last all-reduce", "[integration][optimizer]") {
    const int k = GENERATE(1, 4);
    CAPTURE(k);
    const auto scenario = scenario_with(kRingOneBucket, {"training.accumulation_steps=" + std::to_string(k),
                                                         "training.optimizer={kind: adam}"});
    const double step_s = CostModel(scenario).optimizer_step_s();
    // 100 MB of fp32 gradients: 25 M parameters, 28 bytes each (m, v, weights read and written; gradient read).
    const auto& gpu = scenario.cluster.gpu;
    CHECK(step_s == Approx(25e6 * 28 / (gpu.memory_bytes_per_second * gpu.memory_efficiency)).epsilon(1e-12));
    const auto run = test::simulate_in_child(scenario);
    const double expected = k * (kForward + kBackward) + ring_allreduce_s() + step_s;
    CHECK(run.summary.iteration_time_s == Approx(expected).epsilon(1e-9));
    CHECK(run.summary.compute_time_s == Approx(k * (kForward + kBackward) + step_s).epsilon(1e-9));
    int steps = 0;
    for (const auto& span : run.spans) {
        if (span.rank != 0 || span.name != "optimizer") continue;
        ++steps;
        CHECK(span.end_s - span.start_s == Approx(step_s).epsilon(1e-9));
    }
    CHECK(steps == 3);  // once per iteration, whatever k
}

TEST_CASE("gradient accumulation overlaps communication with the last micro-batch's backward only",
          "[integration][accumulation]") {
    // Four 25 MB buckets: the first three all-reduce during the last backward.
    const std::string strategy = "{kind: allreduce, algorithm: ring, bucket: 25MB}";
    const auto once = test::simulate_in_child(scenario_with(strategy, {}, 4));
    const auto four = test::simulate_in_child(scenario_with(strategy, {"training.accumulation_steps=4"}, 4));
    CHECK(once.summary.iteration_time_s < kForward + kBackward + ring_allreduce_s());  // it does overlap
    CHECK(four.summary.iteration_time_s - once.summary.iteration_time_s == Approx(3 * (kForward + kBackward)).epsilon(1e-9));
}

TEST_CASE("inside a synchronous all-reduce, ranks wait for the straggler: closed form", "[integration][waits]") {
    const auto algorithm = GENERATE(std::string("ring"), std::string("tree"), std::string("halving-doubling"),
                                    std::string("direct"));
    CAPTURE(algorithm);
    const double factor = 2;
    const auto run = test::simulate_in_child(scenario_with(
        "{kind: allreduce, algorithm: " + algorithm + ", bucket: 1GB}",
        {"training.stragglers={slowdown: [{ranks: [3], factor: 2}]}"}));
    const double extra = (factor - 1) * (kForward + kBackward);  // the straggler's extra compute
    // The tree's ranks finish its all-reduce at different moments (the result goes down level by level),
    // so they start the next iteration apart: waits count compute from each rank's own start, so that
    // skew is not taken for a slow worker.
    for (int it = 0; it < 3; ++it) {
        CAPTURE(it);
        auto times = time_by_rank_and_name(run, it);
        for (int rank = 0; rank < 3; ++rank) CHECK(times[{rank, "wait: slowest worker"}] == Approx(extra).epsilon(1e-9));
        CHECK(times[{3, "wait: slowest worker"}] == 0);
    }
    // The summary's wait time is the mean over ranks per iteration, and its share of the iteration.
    CHECK(run.summary.wait_time_s == Approx(3 * extra / kNodes).epsilon(1e-9));
    CHECK(run.summary.wait_share == Approx(run.summary.wait_time_s / run.summary.iteration_time_s).epsilon(1e-12));
    CHECK(run.summary.iteration_time_s >= factor * (kForward + kBackward));
    if (algorithm == "ring") {
        // Communication starts when the last rank arrives: every rank's all-reduce span is the closed form.
        CHECK(run.summary.comm_time_s == Approx(ring_allreduce_s()).epsilon(1e-9));
        CHECK(run.summary.iteration_time_s == Approx(factor * (kForward + kBackward) + ring_allreduce_s()).epsilon(1e-9));
    }
}

TEST_CASE("in flow fidelity a straggler holds back every rank, not only its ring neighbours", "[integration][waits]") {
    const auto run = test::simulate_in_child(scenario_with(
        kRingOneBucket, {"training.fidelity=flow", "training.stragglers={slowdown: [{ranks: [1], factor: 2}]}"}));
    // A ring phase is one aggregate flow per rank, yet rank 3 (no neighbour of rank 1) waits as in step fidelity.
    const double extra = kForward + kBackward;
    CHECK(time_by_rank_and_name(run, 1)[{3, "wait: slowest worker"}] == Approx(extra).epsilon(1e-9));
    CHECK(run.summary.iteration_time_s == Approx(2 * (kForward + kBackward) + ring_allreduce_s()).epsilon(1e-9));
    CHECK(run.summary.worker_samples_per_s_min == Approx(run.summary.worker_samples_per_s_max).epsilon(1e-9));
}

TEST_CASE("without a straggler nobody waits inside the all-reduce", "[integration][waits]") {
    const auto run = test::simulate_in_child(scenario_with(kRingOneBucket, {}));
    CHECK(run.summary.wait_time_s == 0);
    CHECK(run.summary.iteration_time_s == Approx(kForward + kBackward + ring_allreduce_s()).epsilon(1e-9));
    // Four GPUs per node on a 10 Gb/s NIC, flow fidelity, four buckets: ranks whose ring neighbours share
    // their node finish a collective before the others and reach the next one early. That is the network,
    // not a slow worker: no wait, and communication never counts the same moment twice.
    const auto mixed = test::simulate_in_child(
        scenario_with("{kind: allreduce, algorithm: ring, bucket: 25MB}",
                      {"cluster.gpus_per_node=4", "cluster.nic={bandwidth: 10Gbps, latency: 5us}", "training.fidelity=flow"}, 4));
    CHECK(mixed.summary.wait_time_s == 0);
    CHECK(mixed.summary.comm_time_s <= mixed.summary.iteration_time_s);
    CHECK(mixed.summary.comm_share > 0.5);  // 100 MB over 10 Gb/s is 80 ms against 90 ms of compute
}

TEST_CASE("compression shrinks parameter-server pushes and pulls by its ratio", "[integration][compression]") {
    const auto fidelity = GENERATE(std::string("step"), std::string("flow"));
    CAPTURE(fidelity);
    const std::string ps = "{kind: parameter-server, servers: 2, bucket: 1GB}";
    auto simulate = [&](const std::string& compression) {
        auto scenario = scenario_with(ps, {"training.compression=" + compression, "training.fidelity=" + fidelity});
        return std::make_pair(scenario, test::simulate_in_child(scenario));
    };
    const auto [none_scenario, none] = simulate("{kind: none}");
    const auto [int8_scenario, int8] = simulate("{kind: int8}");
    const auto [topk_scenario, topk] = simulate("{kind: topk, ratio: 0.01}");
    const double iterations = 3;
    // Worker side: every iteration pushes and pulls the whole gradient.
    CHECK(bytes_of(none, 0, "push") == Approx(iterations * kGradientBytes));
    CHECK(bytes_of(none, 0, "pull") == Approx(iterations * kGradientBytes));
    // int8: 1 byte per fp32 element (plus a 4-byte scale per bucket) both ways.
    CHECK(bytes_of(none, 0, "push") / bytes_of(int8, 0, "push") == Approx(4).epsilon(1e-6));
    CHECK(bytes_of(none, 0, "pull") / bytes_of(int8, 0, "pull") == Approx(4).epsilon(1e-6));
    // top-k 1 %: (4-byte value, 4-byte index) pairs up, the parameters down dense.
    CHECK(bytes_of(topk, 0, "push") == Approx(iterations * 0.01 * kGradientBytes / 4 * 8));
    CHECK(bytes_of(topk, 0, "pull") == Approx(iterations * kGradientBytes));
    // Server side (ranks 4 and 5): what the servers received and sent, from their own spans.
    for (int server = kNodes; server < kNodes + 2; ++server) {
        CHECK(bytes_of(none, server, "aggregate") / bytes_of(int8, server, "aggregate") == Approx(4).epsilon(1e-6));
        CHECK(bytes_of(none, server, "send") / bytes_of(int8, server, "send") == Approx(4).epsilon(1e-6));
        CHECK(bytes_of(none, server, "aggregate") / bytes_of(topk, server, "aggregate") == Approx(50).epsilon(1e-6));
        CHECK(bytes_of(topk, server, "send") == Approx(bytes_of(none, server, "send")));
    }
    // Encode before the push, decode after the pull (dense casts only), on the worker's compute lane.
    const auto exchange = sim::compress_for_servers(int8_scenario, CostModel(int8_scenario), kGradientBytes);
    CHECK(exchange.encode_s > 0);
    CHECK(exchange.decode_s > 0);
    auto int8_times = time_by_rank_and_name(int8, 1);
    CHECK(int8_times[{0, "encode"}] == Approx(exchange.encode_s).epsilon(1e-9));
    CHECK(int8_times[{0, "decode"}] == Approx(exchange.decode_s).epsilon(1e-9));
    auto topk_times = time_by_rank_and_name(topk, 1);
    CHECK(topk_times[{0, "encode"}] == Approx(sim::compress_for_servers(topk_scenario, CostModel(topk_scenario), kGradientBytes).encode_s).epsilon(1e-9));
    CHECK(topk_times[{0, "decode"}] == 0);
    // On 100 Gb/s with two servers the pushes and pulls dominate: int8 is faster.
    CHECK(int8.summary.iteration_time_s < none.summary.iteration_time_s);
}

}  // namespace training_loop_test
