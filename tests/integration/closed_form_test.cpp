// Closed forms with the ideal network model, one GPU per node, a star fabric, NIC bandwidth B and
// latency L, gradients S in one bucket, zero compute and one measured iteration.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <tuple>

#include "test_support.hpp"

namespace closed_form_test {

using namespace dtsim;

namespace {

constexpr double kBytes = 100e6;
constexpr double kBandwidth = 100e9 / 8;  // 100Gbps
constexpr double kLatency = 5e-6;

double simulated_iteration(int nodes, const std::string& strategy, const std::string& fidelity) {
    const auto text = test::closed_form_scenario(nodes, strategy, fidelity, kBytes, "100Gbps", "5us");
    return test::simulate_in_child(load_scenario_text(text, "closed-form.yaml")).summary.iteration_time_s;
}

double relative_error(double value, double expected) { return std::fabs(value / expected - 1); }

}  // namespace

TEST_CASE("ring all-reduce matches 2(N-1)L + 2(N-1)/N S/B", "[integration][closed-form]") {
    // Instrumented, 256 ranks in step fidelity take 21 s (60 times release: SimGrid's actors switch as threads
    // there); the release run has that case.
    const auto runs_here = [](const std::tuple<int, std::string>& c) {
        return !test::kSanitized || std::get<0>(c) <= 64 || std::get<1>(c) == "flow";
    };
    const auto [n, fidelity] = GENERATE_COPY(
        filter(runs_here, table<int, std::string>({{2, "step"}, {3, "step"}, {8, "step"}, {64, "step"}, {256, "step"},
                                                   {2, "flow"}, {3, "flow"}, {8, "flow"}, {64, "flow"}, {256, "flow"},
                                                   {1024, "flow"}})));
    CAPTURE(n, fidelity);
    const double expected = 2.0 * (n - 1) * kLatency + 2.0 * (n - 1) / n * kBytes / kBandwidth;
    const double simulated = simulated_iteration(n, "{kind: allreduce, algorithm: ring, bucket: 1GB}", fidelity);
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("synchronous parameter server, and SSP with staleness 0, match 2(W S/(P B) + L)", "[integration][closed-form]") {
    const auto [workers, servers] = GENERATE(table<int, int>({{4, 1}, {4, 4}, {8, 2}, {16, 4}, {12, 3}}));
    CAPTURE(workers, servers);
    const double expected = 2 * (workers * kBytes / (servers * kBandwidth) + kLatency);
    const std::string strategy = "{kind: parameter-server, servers: " + std::to_string(servers) +
                                 ", placement: dedicated, bucket: 1GB, aggregation_bandwidth: ";
    const double free_aggregation = simulated_iteration(workers, strategy + "unlimited}", "step");
    CAPTURE(free_aggregation, expected);
    CHECK(relative_error(free_aggregation, expected) <= 1e-6);
    // Aggregation costs server compute: never faster than the closed form.
    const double with_aggregation = simulated_iteration(workers, strategy + "20GB/s}", "step");
    CHECK(with_aggregation >= expected * (1 - 1e-9));
    CHECK(with_aggregation > free_aggregation);
    // SSP(0): a worker at clock c reads every update of clock c - 1, so it waits as a synchronous round does.
    CHECK(relative_error(simulated_iteration(workers, strategy + "unlimited, sync: ssp, staleness: 0}", "step"), free_aggregation) <= 1e-9);
    CHECK(relative_error(simulated_iteration(workers, strategy + "20GB/s, sync: ssp, staleness: 0}", "step"), with_aggregation) <= 1e-9);
}

TEST_CASE("colocated parameter servers match 2((W-1) S/(P B) + L)", "[integration][closed-form]") {
    // Server p runs on node p: its own worker's shard never leaves the node, so each server's link
    // carries W-1 shards each way.
    const auto [workers, servers] = GENERATE(table<int, int>({{8, 1}, {8, 2}, {8, 4}, {6, 3}}));
    CAPTURE(workers, servers);
    const double expected = 2 * ((workers - 1) * kBytes / (servers * kBandwidth) + kLatency);
    const double simulated = simulated_iteration(workers, "{kind: parameter-server, servers: " + std::to_string(servers) +
                                                              ", placement: colocated, bucket: 1GB, aggregation_bandwidth: unlimited}",
                                                 "step");
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("local aggregation: a node's GPUs reduce over NVLink, push and pull one copy, broadcast", "[integration][closed-form]") {
    // 4 nodes x 4 GPUs, one dedicated server. The reduce and the broadcast are chains whose 3 links each carry
    // the whole bucket at once: S/B_nvlink + L_nvlink each. The server's link then carries one copy per node.
    const int nodes = 4;
    const double intra_bw = 100e9, intra_lat = 1e-6;
    const auto fidelity = GENERATE(std::string("step"), std::string("flow"));
    CAPTURE(fidelity);
    auto text = [&](bool local) {
        return "name: local-aggregation\ncluster:\n  nodes: 4\n  gpus_per_node: 4\n  gpu: h100-sxm\n"
               "  intra_node: {bandwidth: 100GB/s, latency: 1us}\n  nic: {bandwidth: 100Gbps, latency: 5us}\n"
               "  fabric: {topology: star}\n  network_model: ideal\n"
               "model: {gradient_bytes: 100MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
               "training:\n  iterations: 1\n  fidelity: " + fidelity +
               "\n  strategy: {kind: parameter-server, servers: 1, placement: dedicated, bucket: 1GB, aggregation_bandwidth: unlimited, "
               "local_aggregation: " + (local ? "true" : "false") + "}\n";
    };
    const double chain = kBytes / intra_bw + intra_lat;
    const double expected = 2 * chain + 2 * (nodes * kBytes / kBandwidth + kLatency);
    const double simulated = test::simulate_in_child(load_scenario_text(text(true), "local.yaml")).summary.iteration_time_s;
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
    // Without it every GPU pushes its own copy through the server's link: 4 times the bytes.
    const double every_gpu = 2 * (4 * nodes * kBytes / kBandwidth + kLatency);
    const double pushed_by_each = test::simulate_in_child(load_scenario_text(text(false), "each.yaml")).summary.iteration_time_s;
    CAPTURE(pushed_by_each, every_gpu);
    CHECK(relative_error(pushed_by_each, every_gpu) <= 1e-6);
}

TEST_CASE("local aggregation with one GPU per node changes nothing", "[integration][closed-form]") {
    const std::string strategy = "{kind: parameter-server, servers: 2, placement: dedicated, bucket: 30MB, sync: async";
    CHECK(simulated_iteration(4, strategy + ", local_aggregation: true}", "step") == simulated_iteration(4, strategy + "}", "step"));
}

TEST_CASE("hierarchical all-reduce on one GPU per node is the ring", "[integration][closed-form]") {
    const double n = 8;
    const double expected = 2.0 * (n - 1) * kLatency + 2.0 * (n - 1) / n * kBytes / kBandwidth;
    const double simulated = simulated_iteration(8, "{kind: allreduce, algorithm: hierarchical, bucket: 1GB}", "step");
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("hierarchical all-reduce: intra-node phases then an inter-node ring of shards", "[integration][closed-form]") {
    // 4 nodes x 4 GPUs; NVLink-like links at 100 GB/s with 1 us GPU-to-GPU latency.
    const int nodes = 4, gpus = 4;
    const double intra_bw = 100e9, intra_lat = 1e-6;
    const std::string text = R"(name: hierarchical
cluster:
  nodes: 4
  gpus_per_node: 4
  gpu: h100-sxm
  intra_node: {bandwidth: 100GB/s, latency: 1us}
  nic: {bandwidth: 100Gbps, latency: 5us}
  network_model: ideal
model: {gradient_bytes: 100MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}
training:
  iterations: 1
  strategy: {kind: allreduce, algorithm: hierarchical, bucket: 1GB}
)";
    const auto run = test::simulate_in_child(load_scenario_text(text, "hierarchical.yaml"));
    // Each intra-node phase: (g-1) steps of S/g over the GPU link. The inter-node ring all-reduces S/g;
    // the GPUs of a node share their NIC, so each inter-node flow gets B/g.
    const double intra = (gpus - 1) * (intra_lat + kBytes / gpus / intra_bw);
    const double inter = 2.0 * (nodes - 1) * (kLatency + kBytes / gpus / nodes / (kBandwidth / gpus));
    const double expected = 2 * intra + inter;
    CAPTURE(run.summary.iteration_time_s, expected);
    CHECK(relative_error(run.summary.iteration_time_s, expected) <= 1e-6);
}

TEST_CASE("a fat-tree without oversubscription gives the ring its closed form", "[integration][closed-form]") {
    const int n = 64;
    auto text = test::closed_form_scenario(n, "{kind: allreduce, algorithm: ring, bucket: 1GB}", "flow", kBytes, "100Gbps", "5us");
    text += "";
    const auto scenario = load_scenario_text(text, "fat-tree.yaml", {"cluster.fabric={topology: fat-tree, radix: 8}"});
    const double expected = 2.0 * (n - 1) * kLatency + 2.0 * (n - 1) / n * kBytes / kBandwidth;
    CHECK(relative_error(test::simulate_in_child(scenario).summary.iteration_time_s, expected) <= 1e-6);
    // With 4:1 oversubscription the ring's cross-leaf hops share up-links and the all-reduce slows down.
    const auto oversubscribed = load_scenario_text(text, "fat-tree.yaml", {"cluster.fabric={topology: fat-tree, radix: 8, oversubscription: 4}"});
    CHECK(test::simulate_in_child(oversubscribed).summary.iteration_time_s >= expected * (1 - 1e-9));
}

}  // namespace closed_form_test
