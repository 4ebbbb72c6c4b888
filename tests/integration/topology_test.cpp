// Fabric topologies and multi-NIC nodes against closed forms with the ideal network model: NIC bandwidth
// B and latency L, gradients S in one bucket, zero compute, one measured iteration.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "test_support.hpp"

namespace topology_test {

using namespace dtsim;

namespace {

constexpr double kBytes = 100e6;
constexpr double kBandwidth = 100e9 / 8;  // 100Gbps
constexpr double kLatency = 5e-6;
constexpr double kIntraBandwidth = 100e9;  // 100GB/s
constexpr double kIntraLatency = 1e-6;

double relative_error(double value, double expected) { return std::fabs(value / expected - 1); }

// `nodes` nodes of `gpus` GPUs with NICs as given, on `fabric`, synchronising 100 MB of gradients.
std::string cluster_scenario(int nodes, int gpus, const std::string& nic, const std::string& fabric,
                             const std::string& strategy, const std::string& fidelity) {
    return "name: topology\ncluster:\n  nodes: " + std::to_string(nodes) + "\n  gpus_per_node: " +
           std::to_string(gpus) + "\n  gpu: h100-sxm\n  intra_node: {bandwidth: 100GB/s, latency: 1us}\n  nic: " + nic +
           "\n  fabric: " + fabric + "\n  network_model: ideal\n" +
           "model: {gradient_bytes: 100MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
           "training:\n  iterations: 1\n  fidelity: " + fidelity + "\n  strategy: " + strategy + "\n";
}

double simulated_iteration(const std::string& text) {
    return test::simulate_in_child(load_scenario_text(text, "topology.yaml")).summary.iteration_time_s;
}

// A ring all-reduce (flow fidelity) over one-GPU nodes whose slowest ring step crosses `hops` links of
// latency L each and has the NIC's bandwidth to itself.
double ring_with_hops(int n, double hops) { return 2.0 * (n - 1) * (hops * kLatency + kBytes / n / kBandwidth); }

const char* const kRing = "{kind: allreduce, algorithm: ring, bucket: 1GB}";
const char* const kNic = "{bandwidth: 100Gbps, latency: 5us}";

}  // namespace

TEST_CASE("each GPU's inter-node traffic leaves through its own NIC", "[integration][topology]") {
    // Hierarchical all-reduce on 4 nodes of 4 GPUs with K NICs each: GPU i uses NIC i·K/4, so each NIC
    // carries the inter-node rings of 4/K GPUs and each ring gets B·K/4. Every fabric below is
    // non-blocking; neighbouring nodes are L apart, except on several rails (L/2: the longest path, which
    // has L, crosses the spine).
    const auto [fabric, count, latency_share] = GENERATE(table<std::string, int, double>(
        {{"{topology: star}", 1, 1},
         {"{topology: star}", 2, 1},
         {"{topology: star}", 4, 1},
         {"{topology: fat-tree, radix: 8}", 1, 1},
         {"{topology: fat-tree, radix: 8}", 4, 1},
         {"{topology: rail-optimized}", 1, 1},
         {"{topology: rail-optimized}", 2, 0.5},
         {"{topology: rail-optimized}", 4, 0.5},
         {"{topology: torus, dimensions: [4]}", 2, 1},
         {"{topology: dragonfly, groups: 1, routers_per_group: 1, nodes_per_router: 4}", 4, 1}}));
    CAPTURE(fabric, count);
    const int nodes = 4, gpus = 4;
    const std::string nic = "{count: " + std::to_string(count) + ", bandwidth: 100Gbps, latency: 5us}";
    const std::string strategy = "{kind: allreduce, algorithm: hierarchical, bucket: 1GB}";
    const double simulated = simulated_iteration(cluster_scenario(nodes, gpus, nic, fabric, strategy, "step"));
    const double intra = (gpus - 1) * (kIntraLatency + kBytes / gpus / kIntraBandwidth);
    const double ring_bandwidth = kBandwidth * count / gpus;
    const double inter = 2.0 * (nodes - 1) * (latency_share * kLatency + kBytes / gpus / nodes / ring_bandwidth);
    CAPTURE(simulated, 2 * intra + inter);
    CHECK(relative_error(simulated, 2 * intra + inter) <= 1e-6);
}

TEST_CASE("rail-optimized: a ring across rails goes through the spine", "[integration][topology]") {
    // Flat ring over 4 nodes × 4 GPUs with 4 NICs: GPU 3 of a node sends to GPU 0 of the next, from rail 3
    // to rail 0, over the longest path: NIC, two rail up-links, NIC (L in all). Each rail's up-link carries
    // 4 NICs' bandwidth over the oversubscription, and the 4 cross-rail flows share it.
    const auto oversubscription = GENERATE(1, 2, 4);
    CAPTURE(oversubscription);
    const int n = 16;
    const auto fabric = "{topology: rail-optimized, oversubscription: " + std::to_string(oversubscription) + "}";
    const auto nic = "{count: 4, bandwidth: 100Gbps, latency: 5us}";
    const double simulated = simulated_iteration(cluster_scenario(4, 4, nic, fabric, kRing, "flow"));
    const double per_flow = kBandwidth * 4 / oversubscription / 4;
    const double expected = 2.0 * (n - 1) * (kLatency + kBytes / n / std::min(kBandwidth, per_flow));
    CAPTURE(simulated, expected);
    CHECK(relative_error(simulated, expected) <= 1e-6);
}

TEST_CASE("torus: each ring step pays one link's latency per hop", "[integration][topology]") {
    // Positions run along the first dimension first: a ring in rank order on [8] steps to a neighbour;
    // on [4, 4] a step to the next row is 2 hops, on [2, 2, 2] the steps to the next plane are 3. No two
    // ring flows share a link, so each step also has the NIC's bandwidth: the star's closed form with
    // hops × L in place of L. On [8] that is the star's, in both fidelities.
    const auto [dimensions, n, hops, fidelity] = GENERATE(table<std::string, int, int, std::string>(
        {{"[8]", 8, 1, "step"}, {"[8]", 8, 1, "flow"}, {"[4, 4]", 16, 2, "flow"}, {"[2, 2, 2]", 8, 3, "flow"}}));
    CAPTURE(dimensions, fidelity);
    const auto fabric = "{topology: torus, dimensions: " + dimensions + "}";
    const double simulated = simulated_iteration(cluster_scenario(n, 1, kNic, fabric, kRing, fidelity));
    CAPTURE(simulated, ring_with_hops(n, hops));
    CHECK(relative_error(simulated, ring_with_hops(n, hops)) <= 1e-6);
}

TEST_CASE("dragonfly: minimal routes, and global links shared across groups", "[integration][topology]") {
    SECTION("a ring's slowest step crosses as many links of L/5 as its minimal route has") {
        // 2 groups × 2 routers × 2 nodes: the longest path has 5 links. Two nodes share a router (2 links);
        // four fill group 0, and 1 → 2 and 3 → 0 go router to router (3); with eight, 7 → 0 goes to the
        // router holding the global link, over it, and on to node 0's router (5).
        const auto [n, links] = GENERATE(table<int, double>({{2, 2}, {4, 3}, {8, 5}}));
        CAPTURE(n);
        const auto fabric = "{topology: dragonfly, groups: 2, routers_per_group: 2, nodes_per_router: 2}";
        const double simulated = simulated_iteration(cluster_scenario(n, 1, kNic, fabric, kRing, "flow"));
        CHECK(relative_error(simulated, ring_with_hops(n, links / 5)) <= 1e-6);
    }
    SECTION("a parameter server across groups is bound by the global links") {
        // 8 worker nodes fill group 0; 4 dedicated servers sit in group 1. Every shard crosses the one
        // global link between the groups: W·S bytes each way at global_links × B (no latency here).
        const auto global_links = GENERATE(1, 2);
        CAPTURE(global_links);
        const int workers = 8;
        const auto fabric = "{topology: dragonfly, groups: 2, routers_per_group: 2, nodes_per_router: 4, "
                            "global_links: " + std::to_string(global_links) + "}";
        const auto servers = "{kind: parameter-server, servers: 4, placement: dedicated, bucket: 1GB, "
                             "aggregation_bandwidth: unlimited}";
        const auto nic = "{bandwidth: 100Gbps, latency: 0s}";
        const double simulated = simulated_iteration(cluster_scenario(workers, 1, nic, fabric, servers, "step"));
        const double expected = 2 * workers * kBytes / (global_links * kBandwidth);
        CAPTURE(simulated, expected);
        CHECK(relative_error(simulated, expected) <= 1e-6);
    }
}

TEST_CASE("a three-level fat-tree without oversubscription gives the ring its closed form",
          "[integration][topology]") {
    // 64 nodes under radix-4 switches: the ring's steps between 16-node sub-trees cross the top level, 6
    // links of L/6. With oversubscribed leaf switches the ring cannot be faster.
    const int n = 64;
    const std::string fabric = "{topology: fat-tree, radix: 4, levels: 3";
    const auto full = cluster_scenario(n, 1, kNic, fabric + "}", kRing, "flow");
    CHECK(relative_error(simulated_iteration(full), ring_with_hops(n, 1)) <= 1e-6);
    const auto oversubscribed = cluster_scenario(n, 1, kNic, fabric + ", oversubscription: 4}", kRing, "flow");
    CHECK(simulated_iteration(oversubscribed) >= ring_with_hops(n, 1) * (1 - 1e-9));
}

TEST_CASE("every topology runs every strategy with multi-NIC nodes", "[integration][topology]") {
    // 4 nodes of 4 GPUs on 2 NICs each, and 2 dedicated servers where the strategy has them.
    const auto fabric = GENERATE(as<std::string>{}, "{topology: star}", "{topology: fat-tree, radix: 2, levels: 3}",
                                 "{topology: rail-optimized, oversubscription: 2}",
                                 "{topology: torus, dimensions: [3, 2]}",
                                 "{topology: dragonfly, groups: 2, routers_per_group: 2, nodes_per_router: 2}");
    const auto [strategy, fidelity] = GENERATE(table<std::string, std::string>(
        {{"{kind: allreduce, algorithm: ring}", "step"},
         {"{kind: allreduce, algorithm: hierarchical}", "flow"},
         {"{kind: parameter-server, servers: 2, placement: dedicated}", "step"},
         {"{kind: parameter-server, servers: 2, placement: colocated}", "flow"}}));
    CAPTURE(fabric, strategy, fidelity);
    const auto nic = "{count: 2, preset: ib-ndr}";
    const double simulated = simulated_iteration(cluster_scenario(4, 4, nic, fabric, strategy, fidelity));
    CHECK(std::isfinite(simulated));
    CHECK(simulated > 0);
}

TEST_CASE("a parameter server's traffic leaves a node through all of its NICs", "[integration][topology]") {
    // 2 nodes of 4 GPUs with K NICs, 8 dedicated servers, synchronous, one bucket: a NIC carries the
    // 4/K GPUs' S each way and a server's NIC 8 shards of S/8, so each phase (push, then pull) takes
    // max(4/K, 1)·S/B + L, and between them a server sums its 8 shards at rate A. In flow fidelity the GPUs
    // behind one NIC push as one endpoint.
    const auto count = GENERATE(1, 2, 4);
    const auto fidelity = GENERATE(as<std::string>{}, "step", "flow");
    CAPTURE(count, fidelity);
    const std::string nic = "{count: " + std::to_string(count) + ", bandwidth: 100Gbps, latency: 5us}";
    const auto strategy = "{kind: parameter-server, servers: 8, placement: dedicated, bucket: 1GB, "
                          "aggregation_bandwidth: 50GB/s}";
    const double simulated = simulated_iteration(cluster_scenario(2, 4, nic, "{topology: star}", strategy, fidelity));
    const double phase = std::max(4.0 / count, 1.0) * kBytes / kBandwidth + kLatency;
    const double sum = kBytes / 50e9;
    CAPTURE(simulated, 2 * phase + sum);
    CHECK(relative_error(simulated, 2 * phase + sum) <= 1e-6);
}

}  // namespace topology_test
