// Closed forms of algorithm: nccl (docs/collectives.md) on the ideal network with zero wire latency: a
// collective takes one kernel launch, NCCL's modelled latency (the published tuning.cc constants, written out
// here), one chunk's pipeline fill, and its bytes at the busiest link's rate.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include "dtsim/compute_model.hpp"
#include "test_support.hpp"

namespace nccl_collectives_test {

using namespace dtsim;

namespace {

constexpr double kUs = 1e-6;
constexpr double kLaunch = kKernelLaunchOverheadS;  // each call's kernel launch, without a profile

struct Cluster {
    int nodes = 1;
    int gpus = 8;
    int nics = 1;
    double intra_bytes_per_second = 100e9;
    double nic_bytes_per_second = 50e9;
    double in_network_reduction = 0;
};

// `cluster` on the ideal network with zero wire latency and `fabric`, one iteration of a model of `gradient_bytes`,
// training with `strategy`.
Scenario scenario_of(const Cluster& cluster, const std::string& fabric, double gradient_bytes, const std::string& fidelity,
                     const std::string& strategy) {
    std::ostringstream yaml;
    yaml.precision(17);
    yaml << "name: nccl\ncluster:\n  nodes: " << cluster.nodes << "\n  gpus_per_node: " << cluster.gpus << "\n  gpu: h100-sxm\n"
         << "  intra_node: {preset: nvlink4, bandwidth: " << cluster.intra_bytes_per_second * 8 << "bps, latency: 0us, "
         << "in_network_reduction: " << cluster.in_network_reduction << "}\n"
         << "  nic: {count: " << cluster.nics << ", bandwidth: " << cluster.nic_bytes_per_second * 8 << "bps, latency: 0us}\n"
         << "  fabric: " << fabric << "\n  network_model: ideal\n"
         << "model: {gradient_bytes: " << gradient_bytes << ", forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
         << "training:\n  iterations: 1\n  fidelity: " << fidelity << "\n  strategy: " << strategy << "\n";
    return load_scenario_text(yaml.str(), "nccl.yaml");
}

double allreduce_time(const Cluster& cluster, double bytes, const std::string& nccl, const std::string& fidelity = "flow") {
    const auto scenario = scenario_of(cluster, "{topology: rail-optimized}", bytes, fidelity,
                                      "{kind: allreduce, algorithm: nccl, bucket: 8GB, nccl: " + nccl + "}");
    return test::simulate_in_child(scenario).summary.iteration_time_s;
}

double relative_error(double value, double expected) { return std::fabs(value / expected - 1); }

// One collective of `bytes` over every GPU, replayed as `strategy` runs it.
double collective_time(const Cluster& cluster, const std::string& fabric, NetworkOp op, double bytes, const std::string& fidelity,
                       const std::string& strategy) {
    const auto scenario = scenario_of(cluster, fabric, 1e6, fidelity, strategy);
    return test::simulate_collectives_in_child(scenario, {{op, bytes, scenario.cluster.gpus()}}).front();
}

// One all-to-all of `bytes` per rank over every GPU with the scenario's `algorithm`, on a rail-optimized fabric whose
// rail switches' up-links to the spine carry a quarter of their NICs' rate.
double alltoall_time(const Cluster& cluster, double bytes, const std::string& algorithm, const std::string& fidelity) {
    return collective_time(cluster, "{topology: rail-optimized, oversubscription: 4}", NetworkOp::alltoall, bytes, fidelity,
                           "{kind: allreduce, algorithm: " + algorithm + "}");
}

// Ring, Simple protocol: base 8.4 µs; NVLink hop 3.4 µs (above the 3 x 1 µs network overhead floor); network hop 14 µs.
double ring_simple_latency_s(int ranks, int nodes) {
    const int steps = 2 * (ranks - 1), inter = nodes > 1 ? 2 * (nodes - 1) : 0;
    return 8.4 * kUs + (steps - inter) * 3.4 * kUs + inter * 14.0 * kUs;
}

constexpr double kSimpleStep = 4.0 * 1024 * 1024 / 8;  // the Simple protocol's 4 MiB buffer over 8 steps

}  // namespace

TEST_CASE("nccl: k channels over k NICs give k times one channel's inter-node bandwidth", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    Cluster cluster{2, 8, 8, 10e12, 50e9, 0};
    const double bytes = 1e9, n = 16;
    // Each channel's ring crosses each node boundary once, through its rail's NIC: 2(n-1)/n S/C bytes.
    // Filling the pipeline takes one step's chunk through the node's 7 NVLink hops.
    const double overhead = kLaunch + ring_simple_latency_s(16, 2) + 7 * kSimpleStep / cluster.intra_bytes_per_second;
    auto expected = [&](int channels) { return overhead + 2 * (n - 1) / n * bytes / channels / cluster.nic_bytes_per_second; };
    // Three channels use three of the eight rails; sixteen put two channels on each rail's NIC (in flow
    // fidelity one flow per pair of GPUs carries both), as fast as eight.
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple, channels: 3}", fidelity), expected(3)) <= 1e-6);
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple, channels: 16}", fidelity), expected(8)) <=
          1e-6);
    const double one = allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple, channels: 1}", fidelity);
    const double eight = allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple, channels: 8}", fidelity);
    CAPTURE(one, eight);
    CHECK(relative_error(one, expected(1)) <= 1e-6);
    CHECK(relative_error(eight, expected(8)) <= 1e-6);
    CHECK(relative_error((one - overhead) / (eight - overhead), 8) <= 1e-6);
    // By default a channel per NIC.
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple}", fidelity), expected(8)) <= 1e-6);
}

TEST_CASE("nccl: the pipelined ring across nodes approaches the slower phase's time as chunks shrink", "[integration][nccl]") {
    // One NIC per node at 50 GB/s carries 2(n-1)/n S; each GPU's NVLink at 100 GB/s the same bytes, at once.
    Cluster cluster{2, 8, 1, 100e9, 50e9, 0};
    const double bytes = 1e9, n = 16;
    const double slower_phase = kLaunch + ring_simple_latency_s(16, 2) + 2 * (n - 1) / n * bytes / cluster.nic_bytes_per_second;
    double previous = 0;
    for (const double chunk : {4.0 * 1024 * 1024, 512.0 * 1024, 8.0 * 1024}) {
        std::ostringstream nccl;
        nccl << "{algorithm: ring, protocol: simple, chunk: " << chunk << "}";
        const double simulated = allreduce_time(cluster, bytes, nccl.str());
        const double expected = slower_phase + 7 * chunk / cluster.intra_bytes_per_second;
        CAPTURE(chunk, simulated, expected);
        CHECK(relative_error(simulated, expected) <= 1e-6);
        if (previous > 0) CHECK(simulated < previous);
        previous = simulated;
    }
    CHECK(relative_error(previous, slower_phase) <= 1e-4);
}

TEST_CASE("nccl: a tree's first chunk crosses the tree up and down before the steady state", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    // 2 nodes x 8 GPUs, a channel per NIC, each channel both trees with half its bytes (16 trees), Simple. The
    // flows and NCCL's latency do not depend on the chunk; the first chunk's passage does. It shares each hop
    // with its channel's other tree only: NVLink at 0.92 x 100 / 2 GB/s of payload, its rail's NIC at
    // 0.92 x 50 / 2. It crosses 14 NVLink hops and 2 network hops, one of which (the slowest, the NIC's) is the
    // steady state's own: chunk x (14 / intra + 1 / net).
    Cluster cluster{2, 8, 8, 100e9, 50e9, 0};
    const double intra = 0.92 * cluster.intra_bytes_per_second / 2, net = 0.92 * cluster.nic_bytes_per_second / 2;
    auto passage = [&](double chunk) { return chunk * (14 / intra + 1 / net); };
    auto tree = [&](double bytes, std::optional<double> chunk) {
        std::ostringstream nccl;
        nccl << "{algorithm: tree, protocol: simple";
        if (chunk) nccl << ", chunk: " << *chunk;
        nccl << "}";
        return allreduce_time(cluster, bytes, nccl.str(), fidelity);
    };
    // Differences between collectives of about 20 ms, checked to 0.1 % (tens of nanoseconds, above SimGrid's precision).
    const double bytes = 1e9, smallest = 8.0 * 1024;
    const double base = tree(bytes, smallest);
    const double large = 4.0 * 1024 * 1024;
    CHECK(relative_error(tree(bytes, large) - base, passage(large) - passage(smallest)) <= 1e-3);
    // Simple's chunk is its step; a chunk never exceeds one tree's bytes (1 MB / 16).
    CHECK(relative_error(tree(bytes, std::nullopt) - base, passage(kSimpleStep) - passage(smallest)) <= 1e-3);
    const double small = 1e6;
    CHECK(relative_error(tree(small, std::nullopt) - tree(small, smallest), passage(small / 16) - passage(smallest)) <= 1e-3);
}

TEST_CASE("nccl: a tree across nodes runs at NCCL's per-channel cap where the cap is below its links", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    // 8 nodes x 8 GPUs on nvlink4 (Hopper) at 400 GB/s, 8 NICs of 50 GB/s line rate: 8 search channels of 48 GB/s,
    // not doubled (more than 4 below 50 GB/s), so the tree with LL128 is capped at 8 x 29 GB/s of bus bandwidth, below
    // its links' 120/128 x 400. Its bus bytes are 2S: a further 1 GB takes 2 GB / 232 GB/s (from 2 to 3 GB the latency
    // and NCCL's LL128 tree chunk, so the first chunk's passage, do not change: below 2 GB 64 trees halve the chunk).
    // Forced channels scale the cap by their count over NCCL's 16 compute channels.
    Cluster cluster{8, 8, 8, 400e9, 50e9, 0};
    const auto further_gigabyte = [&](const std::string& nccl) {
        return allreduce_time(cluster, 3e9, nccl, fidelity) - allreduce_time(cluster, 2e9, nccl, fidelity);
    };
    CHECK(relative_error(further_gigabyte("{algorithm: tree, protocol: ll128}"), 2e9 / (8 * 29e9)) <= 1e-3);
    // 8 forced channels, half NCCL's compute channels, halve it.
    CHECK(relative_error(further_gigabyte("{algorithm: tree, protocol: ll128, channels: 8}"), 2e9 / (4 * 29e9)) <= 1e-3);
    // 32: the doubled cap (464 GB/s) is above the links, which bind.
    CHECK(relative_error(further_gigabyte("{algorithm: tree, protocol: ll128, channels: 32}"), 2e9 / (120.0 / 128 * 400e9)) <= 1e-3);
}

TEST_CASE("nccl: an NVLS all-reduce moves S per GPU where the ring moves 2(n-1)/n S", "[integration][nccl]") {
    // NVLS: 25 µs + the first wave + S/(efficiency x link). The first wave: 16 compute channels x 8 heads = 128
    // operations, each starting with one chunk (64 KiB at 1 GB: below 64 chunks of 128 KiB per operation), reduced in
    // the switch and multicast back at efficiency x link / 128 per chunk; one of the two passes is the steady state's.
    Cluster cluster{1, 8, 1, 100e9, 50e9, 1.0};
    const double bytes = 1e9;
    const auto first_wave = [&](double efficiency) { return 65536.0 / (efficiency * cluster.intra_bytes_per_second / 128); };
    const double nvls = allreduce_time(cluster, bytes, "{algorithm: nvls}");
    CHECK(relative_error(nvls, kLaunch + 25 * kUs + first_wave(1.0) + bytes / cluster.intra_bytes_per_second) <= 1e-6);
    const double ring = allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple}");
    CHECK(relative_error(ring, kLaunch + ring_simple_latency_s(8, 1) + 2 * 7.0 / 8 * bytes / cluster.intra_bytes_per_second) <= 1e-6);
    // Where NVLS reduces at 85 % of the link, as NCCL's model has it on Hopper, it still wins at 1 GB.
    cluster.in_network_reduction = 0.85;
    CHECK(relative_error(allreduce_time(cluster, bytes, "{}"),
                         kLaunch + 25 * kUs + first_wave(0.85) + bytes / (0.85 * cluster.intra_bytes_per_second)) <= 1e-6);
    // Unless NVLS is disabled (NCCL_NVLS_ENABLE=0): then the ring.
    CHECK(relative_error(allreduce_time(cluster, bytes, "{nvls: false}"), ring) <= 1e-9);
}

TEST_CASE("nccl: NVLSTree reduces in each node's switch and sends each head's share over its NIC", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    // 8 GPUs per node whose switch reduces at 0.8 of their 100 GB/s NVLink, 8 NICs (the heads) of 12.5 GB/s.
    // Latency 25 µs + 2 log2(N) x 20.9 µs. Each GPU moves S/0.8 through the switch; a node's NICs move S on
    // 2 nodes (each head's share once each way) and 2S on 4 (interior in one of the two trees). The first wave of
    // 16 channels x 8 heads = 128 chunks (128 KiB, 64 KiB from 4 nodes on) passes the switch at 0.8 x 100 / 128
    // GB/s per chunk and each network hop at 12.5 / 16 twice; the slowest pass is the steady state's own.
    Cluster cluster{2, 8, 8, 100e9, 12.5e9, 0.8};
    const double bytes = 1e9, sw = 0.8 * cluster.intra_bytes_per_second / 128, net = cluster.nic_bytes_per_second / 16;
    auto expected = [&](int nodes, double chunk, double nic_bytes) {
        const int levels = nodes == 2 ? 1 : 2;
        const double fill = 2 * chunk / sw + 2 * levels * chunk / net - chunk / std::min(sw, net);
        return kLaunch + (25 + 2 * levels * 20.9) * kUs + fill +
               std::max(bytes / (0.8 * cluster.intra_bytes_per_second), nic_bytes / (8 * cluster.nic_bytes_per_second));
    };
    const double two = allreduce_time(cluster, bytes, "{algorithm: nvls-tree}", fidelity);
    CHECK(relative_error(two, expected(2, 128 * 1024.0, bytes)) <= 1e-6);
    cluster.nodes = 4;
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: nvls-tree}", fidelity), expected(4, 64 * 1024.0, 2 * bytes)) <= 1e-6);
    // The switch the bottleneck: NICs at 100 GB/s.
    cluster = {2, 8, 8, 100e9, 100e9, 0.8};
    const double fast_net = cluster.nic_bytes_per_second / 16;
    const double fill = 2 * 128 * 1024.0 / sw + 2 * 128 * 1024.0 / fast_net - 128 * 1024.0 / std::min(sw, fast_net);
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: nvls-tree}", fidelity),
                         kLaunch + 66.8 * kUs + fill + bytes / (0.8 * cluster.intra_bytes_per_second)) <= 1e-6);
    // Chosen by itself there (the ring would need 30/16 S over the NICs), and never with nvls: false.
    const double nvls_tree = allreduce_time(cluster, bytes, "{algorithm: nvls-tree}", fidelity);
    CHECK(relative_error(allreduce_time(cluster, bytes, "{}", fidelity), nvls_tree) <= 1e-9);
    CHECK(allreduce_time(cluster, bytes, "{nvls: false}", fidelity) > 1.3 * nvls_tree);
}

TEST_CASE("nccl: an all-to-all across nodes goes through the NIC of the receiver's rail (PXN)", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    // One node of 8 GPUs: each sends an eighth of its S to each of its 7 peers over its NVLink: 7/8 S / B.
    Cluster node{1, 8, 8, 100e9, 12.5e9, 0};
    const double bytes = 1e9;
    CHECK(relative_error(alltoall_time(node, bytes, "nccl", fidelity), kLaunch + 7.0 / 8 * bytes / node.intra_bytes_per_second) <= 1e-6);
    // 2 nodes of 8 GPUs and 8 NICs: GPU g's NIC carries what every GPU of its node sends to GPU g of the other node,
    // 8 x S/16, whatever the spine: S/2 at 12.5 GB/s, the NVLink legs (7/8 S at 1 TB/s) alongside.
    Cluster two{2, 8, 8, 1e12, 12.5e9, 0};
    const double pxn = alltoall_time(two, bytes, "nccl", fidelity);
    CHECK(relative_error(pxn, kLaunch + bytes / 2 / two.nic_bytes_per_second) <= 1e-6);
    // Sent directly, 7 of every 8 shares cross the spine through up-links of a quarter of two NICs' rate.
    CHECK(alltoall_time(two, bytes, "ring", fidelity) > 2 * pxn);
}

TEST_CASE("nccl: PAT gathers over one GPU per node in log2 N steps at 0.75 of the NIC", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    // 8 nodes of one GPU and one 12.5 GB/s NIC: every rank sends 1, 2 and 4 shares of S/8 to the ranks 1, 2 and 4
    // nodes on, all at once: 7/8 S through its NIC at 0.75 of it. Latency 8 + log2(8) x 14 / 3.5 + 8 x 2.8 µs.
    Cluster cluster{8, 1, 1, 100e9, 12.5e9, 0};
    const double bytes = 1e9;
    const double expected = kLaunch + (8 + 3 * 14 / 3.5 + 8 * 2.8) * kUs + 7.0 / 8 * bytes / (0.75 * cluster.nic_bytes_per_second);
    for (const auto op : {NetworkOp::allgather, NetworkOp::reducescatter}) {
        CAPTURE(std::string(to_string(op)));
        CHECK(relative_error(collective_time(cluster, "{topology: rail-optimized}", op, bytes, fidelity,
                                             "{kind: allreduce, algorithm: nccl, nccl: {algorithm: pat}}"),
                             expected) <= 1e-6);
    }
}

TEST_CASE("nccl: LL carries half a payload per byte moved", "[integration][nccl]") {
    Cluster cluster{1, 8, 1, 100e9, 50e9, 0};
    const double bytes = 100e6, bus = 2 * 7.0 / 8 * bytes / cluster.intra_bytes_per_second;
    // Ring LL: base 6.6 µs, NVLink hop 0.6 µs.
    const double ll = allreduce_time(cluster, bytes, "{algorithm: ring, protocol: ll}");
    CHECK(relative_error(ll, kLaunch + 6.6 * kUs + 14 * 0.6 * kUs + 2 * bus) <= 1e-6);
    const double simple = allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple}");
    CHECK(relative_error(simple, kLaunch + ring_simple_latency_s(8, 1) + bus) <= 1e-6);
}

TEST_CASE("nccl: LL's payload rate stops at NCCL's LL ceiling for the GPU generation", "[integration][nccl]") {
    const auto fidelity = GENERATE(std::string("flow"), std::string("step"));
    CAPTURE(fidelity);
    // Half of a 1 TB/s link would carry 500 GB/s of payload; the nvlink4 preset's ll_max_busbw (NCCL's
    // llMaxBws for Hopper within a node) holds LL's bus bandwidth to 141 GB/s. Simple is not held.
    Cluster cluster{1, 8, 1, 1e12, 50e9, 0};
    const double bytes = 100e6, bus_bytes = 2 * 7.0 / 8 * bytes;
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: ring, protocol: ll}", fidelity),
                         kLaunch + 6.6 * kUs + 14 * 0.6 * kUs + bus_bytes / 141e9) <= 1e-6);
    CHECK(relative_error(allreduce_time(cluster, bytes, "{algorithm: ring, protocol: simple}", fidelity),
                         kLaunch + ring_simple_latency_s(8, 1) + bus_bytes / cluster.intra_bytes_per_second) <= 1e-6);
}

TEST_CASE("nccl: flow fidelity's shared flows end when step fidelity's flows per channel do", "[integration][nccl]") {
    // 16 DGX H100 nodes on their NDR rails, with TCP's per-flow window: across 16 nodes a node's head has the
    // same node as parent in one tree and child in the other. Those two flows of a channel stay two (as one
    // they would get one share and one window where they had two), and each joins the other channels'.
    for (const std::string nccl : {"{algorithm: tree, protocol: simple}", "{algorithm: ring, protocol: simple}"}) {
        CAPTURE(nccl);
        auto time = [&](const std::string& fidelity) {
            const std::string yaml =
                "name: nccl\ncluster: {nodes: 16, node: dgx-h100, fabric: {topology: rail-optimized}}\n"
                "model: {gradient_bytes: 100MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
                "training: {iterations: 1, fidelity: " + fidelity + ", strategy: {kind: allreduce, algorithm: nccl, bucket: 1GB, nccl: " +
                nccl + "}}\n";
            return test::simulate_in_child(load_scenario_text(yaml, "nccl.yaml")).summary.iteration_time_s;
        };
        CHECK(relative_error(time("flow"), time("step")) <= 1e-6);
    }
}

TEST_CASE("nccl: flow fidelity's copies of one node's and one rail's flows end when every flow would", "[integration][nccl]") {
    // A data-parallel all-reduce has the network to itself: flow fidelity simulates the flows inside the first
    // node and, on a rail-optimized fabric, those between nodes on the first rail, which stand for identical
    // copies on the others' links. A link degradation that leaves the whole bandwidth (fraction 1) changes no
    // link but makes every flow simulated. Default TCP model, so shares and windows are those of real runs;
    // NVLink at 100 Gb/s makes the flows inside nodes the bottleneck.
    const auto [fabric, intra, nic, nccl] = GENERATE(table<std::string, std::string, std::string, std::string>({
        {"rail-optimized", "nvlink4", "{count: 8, preset: ib-ndr}", "{algorithm: tree, protocol: simple}"},
        {"rail-optimized", "nvlink4", "{count: 8, preset: ib-ndr}", "{algorithm: ring, protocol: ll128}"},
        {"rail-optimized", "nvlink4", "{count: 8, preset: ib-ndr}", "{algorithm: ring, protocol: simple, channels: 3}"},
        {"rail-optimized", "nvlink4", "{count: 8, preset: ib-ndr}", "{algorithm: tree, protocol: simple, channels: 16}"},
        {"rail-optimized", "nvlink4", "{count: 4, preset: ib-ndr, in_network_reduction: 0.9}", "{algorithm: collnet}"},
        {"rail-optimized", "{preset: nvlink4, bandwidth: 100Gbps}", "{count: 8, preset: ib-ndr}", "{algorithm: tree, protocol: simple}"},
        {"rail-optimized", "{preset: nvlink4, bandwidth: 100Gbps}", "{count: 8, preset: ib-ndr}", "{algorithm: ring, protocol: simple}"},
        {"fat-tree, radix: 2", "nvlink4", "{count: 1, preset: ib-ndr}", "{algorithm: tree, protocol: simple}"},
        {"fat-tree, radix: 2", "{preset: nvlink4, bandwidth: 100Gbps}", "{count: 1, preset: ib-ndr}", "{algorithm: ring, protocol: simple}"},
    }));
    CAPTURE(fabric, intra, nic, nccl);
    auto time = [&](const std::string& stragglers) {
        const std::string yaml =
            "name: nccl\ncluster: {nodes: 4, gpus_per_node: 8, gpu: h100-sxm, intra_node: " + intra + ", nic: " + nic +
            ", fabric: {topology: " + fabric + "}}\n"
            "model: {gradient_bytes: 64MB, forward_time: 1ms, backward_time: 2ms, batch_per_gpu: 1, layers: 4}\n"
            "training: {iterations: 2, fidelity: flow, strategy: {kind: allreduce, algorithm: nccl, bucket: 16MB, nccl: " + nccl +
            "}" + stragglers + "}\n";
        return test::simulate_in_child(load_scenario_text(yaml, "nccl.yaml")).summary.iteration_time_s;
    };
    CHECK(relative_error(time(""), time(", stragglers: {link_degradation: [{rank: 9, fraction: 1}]}")) <= 1e-9);
}

}  // namespace nccl_collectives_test
