// NCCL's choice of algorithm and protocol (core/src/nccl_model.cpp), the scenario keys that force it, and a tree's
// chunk (core/src/nccl_tree_pipeline.cpp).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "dtsim/cost_model.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/nccl_call_costs.hpp"
#include "dtsim/nccl_model.hpp"
#include "dtsim/nccl_tree_pipeline.hpp"
#include "dtsim/scenario.hpp"
#include "nccl_calls.hpp"
#include "test_support.hpp"

namespace nccl_model_test {

using namespace dtsim;

namespace {

// One 8-GPU NVLink node at an H100's NCCL ring bandwidth.
NcclCall one_node(double bytes, double nvls_efficiency = 0) {
    NcclCall call;
    call.ranks = 8;
    call.ranks_per_node = 8;
    call.bytes = bytes;
    call.intra_bytes_per_second = 370e9;
    call.nvls_efficiency = nvls_efficiency;
    return call;
}

NcclChoice automatic(const NcclCall& call) { return choose_nccl(nccl_defaults(), call, {}); }

std::string error_of(const std::string& strategy, const std::string& intra = "nvlink4") {
    const std::string text = "name: n\ncluster: {nodes: 2, gpus_per_node: 8, gpu: h100-sxm, intra_node: " + intra +
                             ", nic: ib-ndr}\nmodel: {zoo: resnet50, batch_per_gpu: 8}\ntraining:\n  strategy: " + strategy + "\n";
    return test::scenario_load_error(text, "s.yaml");
}

}  // namespace

TEST_CASE("nccl: the ring's protocol goes LL, LL128, Simple at the sizes where NCCL's modelled times cross",
          "[unit][nccl]") {
    // Ring all-reduce over 8 GPUs, 14 steps, bus bytes x = 7/4 S. LL: 6.6 + 14 x 0.6 = 15.0 µs at half the
    // bandwidth; LL128: 14 + 14 x 1.9 = 40.6 µs at 0.92; Simple: 8.4 + 14 x 3.4 = 56.0 µs at 1.
    const double bandwidth = 370e9, bus = 7.0 / 4;
    const double ll_to_ll128 = (40.6e-6 - 15.0e-6) / (1 / 0.5 - 1 / 0.92) * bandwidth / bus;
    const double ll128_to_simple = (56.0e-6 - 40.6e-6) / (1 / 0.92 - 1.0) * bandwidth / bus;
    auto ring = [](double bytes) {
        NcclSpec forced;
        forced.algorithm = NcclAlgorithm::ring;
        return choose_nccl(nccl_defaults(), one_node(bytes), forced).protocol;
    };
    CHECK(ring(0.99 * ll_to_ll128) == NcclProtocol::ll);
    CHECK(ring(1.01 * ll_to_ll128) == NcclProtocol::ll128);
    CHECK(ring(0.99 * ll128_to_simple) == NcclProtocol::ll128);
    CHECK(ring(1.01 * ll128_to_simple) == NcclProtocol::simple);
}

TEST_CASE("nccl: LL's ceiling (llMaxBws) moves the ring's LL to LL128 crossing down", "[unit][nccl]") {
    // An A100 node: the ring at 231 GB/s, LL held to 87.7 GB/s of bus bandwidth (not 0.5 x 231 = 115.5).
    const double bandwidth = 231e9, cap = 87.7e9, bus = 7.0 / 4;
    auto call = one_node(0);
    call.intra_bytes_per_second = bandwidth;
    call.ll_max_busbw = cap;
    CHECK(nccl_payload_rate(call, NcclProtocol::ll, 0.5, bandwidth) == cap);
    CHECK(nccl_payload_rate(call, NcclProtocol::ll128, 0.92, bandwidth) == 0.92 * bandwidth);
    const double crossing = (40.6e-6 - 15.0e-6) / (1 / cap - 1 / (0.92 * bandwidth)) / bus;
    NcclSpec forced;
    forced.algorithm = NcclAlgorithm::ring;
    call.bytes = 0.99 * crossing;
    CHECK(choose_nccl(nccl_defaults(), call, forced).protocol == NcclProtocol::ll);
    call.bytes = 1.01 * crossing;
    CHECK(choose_nccl(nccl_defaults(), call, forced).protocol == NcclProtocol::ll128);
    CHECK(nccl_modelled_s(nccl_defaults(), call, {NcclAlgorithm::ring, NcclProtocol::ll}) ==
          Approx(15.0e-6 + bus * call.bytes / cap).epsilon(1e-12));
}

TEST_CASE("nccl: with NVLS a node's all-reduce goes from ring LL to NVLS near 1-2 MiB, as nccl-tests logs show",
          "[unit][nccl]") {
    // NVLS: 25 µs at 0.85 of the link for S; ring LL: 15 µs at half of it for 7/4 S.
    const double crossing = (25e-6 - 15.0e-6) / (2 * 7.0 / 4 - 1 / 0.85) * 370e9;
    CHECK(crossing > 1 << 20);
    CHECK(crossing < 2 << 20);
    const auto below = automatic(one_node(0.99 * crossing, 0.85));
    CHECK((below.algorithm == NcclAlgorithm::ring && below.protocol == NcclProtocol::ll));
    const auto above = automatic(one_node(1.01 * crossing, 0.85));
    CHECK((above.algorithm == NcclAlgorithm::nvls && above.protocol == NcclProtocol::simple));
    // Without NVLS, or for a reduce-scatter, the ring.
    CHECK(automatic(one_node(1e9)).algorithm == NcclAlgorithm::ring);
    auto reduce_scatter = one_node(1e9, 0.85);
    reduce_scatter.op = NetworkOp::reducescatter;
    CHECK(automatic(reduce_scatter).algorithm == NcclAlgorithm::ring);
}

TEST_CASE("nccl: NVLS's bandwidth follows NCCL's channel search with the GPUs of a call", "[unit][nccl]") {
    // k GPUs carry k + 1 channel shares: Hopper's 370.8 GB/s fits 40 GB/s for 8 (9 x 50 > 370.8) and its fastest,
    // 60, for 4 and 2; Blackwell's 721.8 fits 80 for 8 and 90 for 4.
    const auto hopper = load_network_preset("nvlink4", "test").nvls_search, blackwell = load_network_preset("nvlink5", "test").nvls_search;
    REQUIRE(hopper);
    REQUIRE(blackwell);
    CHECK(hopper->scale(8) == Approx(1));
    CHECK(hopper->scale(4) == Approx(4 * 60.0 / (8 * 40)));
    CHECK(hopper->scale(2) == Approx(2 * 60.0 / (8 * 40)));
    CHECK(blackwell->scale(4) == Approx(4 * 90.0 / (8 * 80)));
    // A node's 4 GPUs: NCCL runs the ring, whose 7/4 ... 3/2 S at the link beats NVLS at 0.553 of it (nccl-tests at
    // 4 H200s: ring, bench/nccl-published); all 8: NVLS.
    const auto choice_on = [](int gpus) {
        const CostModel costs(load_scenario_text("name: n\ncluster: {nodes: 1, gpus_per_node: " + std::to_string(gpus) +
                                                     ", gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr}\n"
                                                     "model: {gradient_bytes: 1MB, forward_time: 0ms, backward_time: 0ms, batch_per_gpu: 1, layers: 1}\n"
                                                     "training: {strategy: {kind: allreduce}}\n",
                                                 "n.yaml"));
        const auto call = costs.nccl_call(NetworkOp::allreduce, gpus, 1, gpus, 1, 1e9);
        CHECK(call.nvls_efficiency == Approx(0.737 * (gpus == 8 ? 1 : 0.75)));
        return choose_nccl(costs.nccl(), call, {}).algorithm;
    };
    CHECK(choice_on(8) == NcclAlgorithm::nvls);
    CHECK(choice_on(4) == NcclAlgorithm::ring);
}

namespace {

// The network presets of `files` (name, text after a common head) written to a data directory of their own, and the
// error each gives when loaded; empty where it loads.
std::vector<std::string> network_preset_errors(const std::vector<std::pair<std::string, std::string>>& files) {
    test::TempDir dir;
    std::filesystem::create_directories(dir.path() / "hardware" / "network");
    const std::string head = "kind: network\nname: n\ndescription: d\nbasis: b\nsource: s\nbandwidth: 450GB/s\nlatency: 1us\nefficiency: 0.8\n";
    for (const auto& [name, text] : files) std::ofstream(dir.path() / "hardware" / "network" / (name + ".yaml")) << head << text;
    setenv("DTSIM_DATA_DIR", dir.path().c_str(), 1);
    std::vector<std::string> errors;
    for (const auto& file : files) {
        errors.emplace_back();
        try {
            load_network_preset(file.first, "test");
        } catch (const InputError& e) {
            errors.back() = e.what();
        }
    }
    unsetenv("DTSIM_DATA_DIR");
    return errors;
}

// A preset's nccl_channels block with `speeds`, each of `caps` at 40 GB/s on 2 nodes and 30 on more, then `rest`.
std::string nccl_channels_text(const std::string& speeds, std::initializer_list<std::string> caps, const std::string& rest = "") {
    std::string listed;
    for (const auto& cap : caps) listed += (listed.empty() ? "" : ", ") + cap + ": {two_nodes: 40GB/s, more_nodes: 30GB/s}";
    return "nccl_channels:\n  speeds: " + speeds + "\n  duplicate: {few: 25GB/s, many: 50GB/s}\n  caps: {" + listed + "}\n" + rest;
}

}  // namespace

TEST_CASE("nccl: an NVLS search whose speeds do not fall, or without the fraction it scales, is refused at its key", "[unit][nccl][input]") {
    const auto errors = network_preset_errors({{"rising", "in_network_reduction: 0.7\nnvls_search: {nvlink_total: 370GB/s, speeds: [40GB/s, 60GB/s]}\n"},
                                               {"alone", "nvls_search: {nvlink_total: 370GB/s, speeds: [60GB/s]}\n"}});
    const auto &rising = errors[0], &alone = errors[1];
    CHECK_THAT(rising, Catch::Contains("rising.yaml:10") && Catch::Contains("nvls_search.speeds") && Catch::Contains("fastest first"));
    CHECK_THAT(alone, Catch::Contains("alone.yaml:9") && Catch::Contains("key 'nvls_search'") && Catch::Contains("in_network_reduction"));
}

TEST_CASE("nccl: a preset's NCCL channels without a cap, or with speeds that rise, are refused at their key", "[unit][nccl][input]") {
    const auto errors = network_preset_errors({{"nocap", nccl_channels_text("[48GB/s, 24GB/s]", {"tree", "tree_ll128", "ring_ll128"})},
                                               {"rising", nccl_channels_text("[24GB/s, 48GB/s]", {"tree", "tree_ll128", "ring_ll128", "nvls_tree"})}});
    const auto &nocap = errors[0], &rising = errors[1];
    CHECK_THAT(nocap, Catch::Contains("nocap.yaml:12") && Catch::Contains("nvls_tree"));
    CHECK_THAT(rising, Catch::Contains("rising.yaml:10") && Catch::Contains("nccl_channels.speeds") && Catch::Contains("fastest first"));
}

TEST_CASE("nccl: a forced algorithm that does not apply gives way; a forced protocol holds", "[unit][nccl]") {
    NcclSpec forced;
    forced.algorithm = NcclAlgorithm::nvls;
    CHECK(choose_nccl(nccl_defaults(), one_node(1e9), forced).algorithm == NcclAlgorithm::ring);
    forced = {};
    forced.protocol = NcclProtocol::ll;
    CHECK(choose_nccl(nccl_defaults(), one_node(1e9, 0.85), forced).protocol == NcclProtocol::ll);
}

TEST_CASE("nccl: nvls: false keeps a switch that reduces out of the choice, as NCCL_NVLS_ENABLE=0 does", "[unit][nccl]") {
    REQUIRE(automatic(one_node(1e9, 0.85)).algorithm == NcclAlgorithm::nvls);
    NcclSpec disabled;
    disabled.nvls = false;
    const auto choice = choose_nccl(nccl_defaults(), one_node(1e9, 0.85), disabled);
    CHECK((choice.algorithm == NcclAlgorithm::ring && choice.protocol == NcclProtocol::simple));
}

TEST_CASE("nccl: multi-node latency follows tuning.cc's ring and tree formulas", "[unit][nccl]") {
    NcclCall call = one_node(1e6);
    call.ranks = 32;
    call.nodes = 4;
    call.inter_bytes_per_second = 400e9;
    // Ring Simple: 8.4 + (62 - 6) x max(3.4, 3 x 1.0) + 6 x 14; tree Simple: 8.4 + 2 (7 x 4.0 + 2 x 14).
    CHECK(nccl_latency_s(nccl_defaults(), call, {NcclAlgorithm::ring, NcclProtocol::simple}) == Approx((8.4 + 56 * 3.4 + 84) * 1e-6));
    CHECK(nccl_latency_s(nccl_defaults(), call, {NcclAlgorithm::tree, NcclProtocol::simple}) == Approx((8.4 + 2 * (28 + 28)) * 1e-6));
    // Ring LL: the intra-node hop is floored at the 1 µs network overhead.
    CHECK(nccl_latency_s(nccl_defaults(), call, {NcclAlgorithm::ring, NcclProtocol::ll}) == Approx((6.6 + 56 * 1.0 + 6 * 2.7) * 1e-6));
}

namespace {

// DGX H100-like nodes: 8 GPUs on NVLink at 369 GB/s whose switch reduces at 0.737 of it, 8 NICs of 46 GB/s.
NcclCall h100_nodes(int nodes, double bytes) { return test::whole_nodes_allreduce(nodes, bytes, 369e9, 46e9, 0.737); }

}  // namespace

TEST_CASE("nccl: NVLSTree's latency is NVLS's plus two network hops per tree level (tuning.cc)", "[unit][nccl]") {
    const NcclChoice nvls_tree{NcclAlgorithm::nvls_tree, NcclProtocol::simple};
    CHECK(nccl_latency_s(nccl_defaults(), h100_nodes(2, 1e9), nvls_tree) == Approx((25 + 2 * 20.9) * 1e-6));
    CHECK(nccl_latency_s(nccl_defaults(), h100_nodes(8, 1e9), nvls_tree) == Approx((25 + 6 * 20.9) * 1e-6));
    // Its bandwidth term: the switch's S at 0.737 of NVLink, or the NICs' S (2 nodes) or 2S (more) at 8 x 46 GB/s.
    CHECK(nccl_modelled_s(nccl_defaults(), h100_nodes(2, 1e9), nvls_tree) == Approx(66.8e-6 + 1e9 / (0.737 * 369e9)));
    CHECK(nccl_modelled_s(nccl_defaults(), h100_nodes(4, 1e9), nvls_tree) == Approx(108.6e-6 + 2e9 / (8 * 46e9)));
}

TEST_CASE("nccl: large all-reduces across 2 NVLS nodes choose NVLSTree, across 4 the ring", "[unit][nccl]") {
    // 2 nodes: NVLSTree's S / 272 GB/s against the ring's 30/16 S / 368; 4 nodes: 2S / 368 against 62/32 S / 368,
    // where the ring's larger latency (282.8 against 108.6 µs) makes it lose below 174.2 µs x 368 GB/s / (1/16) = 1.03 GB.
    CHECK((automatic(h100_nodes(2, 1e9)).algorithm == NcclAlgorithm::nvls_tree));
    CHECK((automatic(h100_nodes(4, 0.9e9)).algorithm == NcclAlgorithm::nvls_tree));
    CHECK((automatic(h100_nodes(4, 1.1e9)).algorithm == NcclAlgorithm::ring));
    NcclSpec forced;
    forced.algorithm = NcclAlgorithm::nvls_tree;
    CHECK((choose_nccl(nccl_defaults(), h100_nodes(4, 1e9), forced).algorithm == NcclAlgorithm::nvls_tree));
    // NCCL_NVLS_ENABLE=0 disables it too; so do a switch that cannot reduce, one node, and a single head per node.
    NcclSpec disabled;
    disabled.nvls = false;
    CHECK(choose_nccl(nccl_defaults(), h100_nodes(2, 1e9), disabled).algorithm != NcclAlgorithm::nvls_tree);
    auto no_switch = h100_nodes(2, 1e9);
    no_switch.nvls_efficiency = 0;
    auto one_head = h100_nodes(2, 1e9);
    one_head.rails = 1;
    auto alone = h100_nodes(1, 1e9);
    for (const auto& call : {no_switch, one_head, alone}) CHECK(choose_nccl(nccl_defaults(), call, forced).algorithm != NcclAlgorithm::nvls_tree);
}

namespace {

// DGX H100 nodes with 8 NDR NICs each (line rate 50 GB/s: one search channel per NIC at sm90's 48 GB/s, which NCCL does
// not double with more than 4 channels below 50 GB/s), `channels` forced where not 0.
NcclCall dgx_h100_call(int nodes, double bytes, int channels = 0) {
    const std::string forced = channels > 0 ? ", nccl: {channels: " + std::to_string(channels) + "}" : "";
    const CostModel costs(load_scenario_text("name: n\ncluster: {nodes: " + std::to_string(nodes) +
                                                 ", gpus_per_node: 8, gpu: h100-sxm, intra_node: nvlink4, nic: {count: 8, preset: ib-ndr}}\n"
                                                 "model: {gradient_bytes: 1MB, forward_time: 0ms, backward_time: 0ms, batch_per_gpu: 1, layers: 1}\n"
                                                 "training: {strategy: {kind: allreduce" + forced + "}}\n",
                                             "n.yaml"));
    return costs.nccl_call(NetworkOp::allreduce, 8 * nodes, nodes, 8, 8, bytes);
}

}  // namespace

TEST_CASE("nccl: NVLSTree's channels are capped at NCCL's perChMaxNVLSTreeBws, and its flows carry the difference", "[unit][nccl]") {
    // 8 channels (one per head, the GPU of a NIC) of at most 57.7 GB/s of bus bandwidth on 2 nodes, 45.5 on more
    // (tuning.cc, Hopper); on 2 nodes that is below the switch's 272 GB/s of payload (476 busbw).
    const double bytes = 17179869184.0;
    const auto two = dgx_h100_call(2, bytes);
    CHECK(two.caps.nvls_tree == Approx(8 * 57.7e9));
    CHECK(dgx_h100_call(8, bytes).caps.nvls_tree == Approx(8 * 45.5e9));
    CHECK(dgx_h100_call(1, bytes).caps.nvls_tree == 0);
    const NcclChoice tree{NcclAlgorithm::nvls_tree, NcclProtocol::simple};
    REQUIRE(automatic(two).algorithm == NcclAlgorithm::nvls_tree);
    const double capped = 2 * 15.0 / 16 * bytes / (8 * 57.7e9);
    CHECK(nccl_capped_s(nccl_defaults(), two, tree) == Approx(capped));
    const auto costs = nccl_call_costs(nccl_defaults(), two, tree, 16, std::nullopt);
    CHECK(costs.bottleneck_s == Approx(capped));
    const double uncapped = std::max(bytes / two.nvls_efficiency / two.intra_bytes_per_second, bytes / two.inter_bytes_per_second);
    CHECK(costs.bandwidth_scale == Approx(capped / uncapped));
    CHECK(costs.bandwidth_scale > 1);
}

TEST_CASE("nccl: NCCL's search channels are one per NIC at the fastest speed within its rate, doubled as ncclTopoDupChannels does", "[unit][nccl]") {
    const NcclChannels hopper{.speeds = {48e9, 45e9, 24e9}, .duplicate_few = 25e9, .duplicate_many = 50e9};
    CHECK(hopper.search_channels(8, 50e9) == 8);   // 48 GB/s: below 50 with more than 4 channels
    CHECK(hopper.search_channels(4, 50e9) == 8);   // 4 channels are doubled from 25 GB/s
    CHECK(hopper.search_channels(4, 25e9) == 4);   // 24 GB/s: below 25
    CHECK(hopper.search_channels(2, 10e9) == 2);   // slower than every speed: the slowest
    const NcclChannels ampere{.speeds = {48e9, 30e9, 24e9}, .duplicate_few = 25e9, .duplicate_many = 25e9};
    CHECK(ampere.search_channels(8, 50e9) == 16);
    CHECK(ampere.search_channels(8, 25e9) == 8);
}

TEST_CASE("nccl: the tree's and the ring's bus bandwidth across nodes are capped per channel as tuning.cc caps them", "[unit][nccl]") {
    // Hopper on 8 nodes, 8 search channels: tree 36.0, tree LL128 29.0, ring LL128 36.7 GB/s each; on 2 nodes 41.4, 36.7, 36.7.
    const double bytes = 128.0 * 1024 * 1024;
    const auto eight = dgx_h100_call(8, bytes), two = dgx_h100_call(2, bytes);
    CHECK(eight.caps.tree == Approx(8 * 36.0e9));
    CHECK(eight.caps.tree_ll128 == Approx(8 * 29.0e9));
    CHECK(eight.caps.ring_ll128 == Approx(8 * 36.7e9));
    CHECK(two.caps.tree == Approx(8 * 41.4e9));
    CHECK(dgx_h100_call(1, bytes).caps.tree == 0);
    const auto parameters = nccl_defaults();
    // The tree's bus bytes are 2S (tuning.cc converts its bus bandwidth with 0.5); LL128: min(36.0 x 120/128, 29.0) per channel.
    CHECK(nccl_capped_s(parameters, eight, {NcclAlgorithm::tree, NcclProtocol::ll128}) == Approx(2 * bytes / (8 * 29.0e9)));
    CHECK(nccl_capped_s(parameters, eight, {NcclAlgorithm::tree, NcclProtocol::simple}) == Approx(2 * bytes / (8 * 36.0e9)));
    CHECK(nccl_capped_s(parameters, eight, {NcclAlgorithm::tree, NcclProtocol::ll}) == Approx(2 * bytes / (8 * 36.0e9 / 3.8)));
    CHECK(nccl_capped_s(parameters, two, {NcclAlgorithm::tree, NcclProtocol::ll128}) == Approx(2 * bytes / (8 * 36.7e9)));
    CHECK(nccl_capped_s(parameters, eight, {NcclAlgorithm::ring, NcclProtocol::ll128}) == Approx(2 * 63.0 / 64 * bytes / (8 * 36.7e9)));
    CHECK(nccl_capped_s(parameters, eight, {NcclAlgorithm::ring, NcclProtocol::simple}) == 0);
    // Where the cap binds, the charge takes its time and the flows carry the difference.
    const NcclChoice tree_ll128{NcclAlgorithm::tree, NcclProtocol::ll128};
    const auto costs = nccl_call_costs(parameters, eight, tree_ll128, 8, std::nullopt);
    CHECK(costs.bottleneck_s == Approx(2 * bytes / (8 * 29.0e9)));
    CHECK(costs.bandwidth_scale > 1);
    // NCCL_MIN/MAX_NCHANNELS: NCCL runs two compute channels per search channel, so 32 forced double the caps.
    CHECK(dgx_h100_call(8, bytes, 32).caps.ring_ll128 == Approx(2 * 8 * 36.7e9));
    CHECK(dgx_h100_call(8, bytes, 32).caps.nvls_tree == Approx(8 * 45.5e9));
}

TEST_CASE("nccl: the choice takes NCCL's tree correction by size, 64 B to 256 MiB, and the charge does not", "[unit][nccl]") {
    // log2(bytes / 64): 1 MiB is 14 (LL128 0.6, Simple 0.5), 16 MiB 18 (0.9, 0.7), 256 MiB 22 (1.0, 0.9), 512 MiB beyond.
    CHECK(nccl_tree_correction(NcclProtocol::ll128, 1048576) == Approx(0.6));
    CHECK(nccl_tree_correction(NcclProtocol::simple, 1048576) == Approx(0.5));
    CHECK(nccl_tree_correction(NcclProtocol::ll128, 16777216) == Approx(0.9));
    CHECK(nccl_tree_correction(NcclProtocol::ll, 16777216) == Approx(0.9));
    CHECK(nccl_tree_correction(NcclProtocol::simple, 268435456) == Approx(0.9));
    CHECK(nccl_tree_correction(NcclProtocol::simple, 536870912) == 1);
    CHECK(nccl_tree_correction(NcclProtocol::ll, 32) == 1);
    const auto call = dgx_h100_call(8, 16777216);
    const auto parameters = nccl_defaults();
    const NcclChoice tree{NcclAlgorithm::tree, NcclProtocol::ll128};
    const auto costs = nccl_call_costs(parameters, call, tree, 8, std::nullopt);
    CHECK(nccl_modelled_s(parameters, call, tree) == Approx(nccl_latency_s(parameters, call, tree) + costs.bottleneck_s / 0.9));
}

TEST_CASE("nccl: the choice takes a multi-node Simple ring all-reduce's latency times NCCL's plateau, the charge does not", "[unit][nccl]") {
    // ncclTopoGetAlgoTime: x 1.4 (compute capability 8.0 on) where the all-reduce holds 64 B or more per compute channel
    // and rank: 16 compute channels (8 search channels, two each) x 64 ranks x 64 B = 64 KiB on 8 DGX H100 nodes.
    const auto call = dgx_h100_call(8, 1e9);
    CHECK(call.ring_plateau == Approx(1.4));
    CHECK(dgx_h100_call(8, 65536).ring_plateau == Approx(1.4));
    CHECK(dgx_h100_call(8, 65535).ring_plateau == 1);
    CHECK(dgx_h100_call(1, 1e9).ring_plateau == 1);
    const auto parameters = nccl_defaults();
    const NcclChoice ring{NcclAlgorithm::ring, NcclProtocol::simple}, ring_ll{NcclAlgorithm::ring, NcclProtocol::ll};
    auto flat = call;
    flat.ring_plateau = 1;
    CHECK(nccl_modelled_s(parameters, call, ring) - nccl_modelled_s(parameters, flat, ring) ==
          Approx(0.4 * nccl_latency_s(parameters, call, ring)));
    CHECK(nccl_modelled_s(parameters, call, ring_ll) == Approx(nccl_modelled_s(parameters, flat, ring_ll)));
    CHECK(nccl_call_costs(parameters, call, ring, 8, std::nullopt).latency_s == Approx(nccl_latency_s(parameters, call, ring)));
}

TEST_CASE("nccl: a preset's ring plateau below 1 is refused at its key", "[unit][nccl][input]") {
    const auto errors = network_preset_errors(
        {{"low", nccl_channels_text("[48GB/s, 24GB/s]", {"tree", "tree_ll128", "ring_ll128", "nvls_tree"}, "  ring_plateau: 0.5\n")}});
    CHECK_THAT(errors[0], Catch::Contains("low.yaml:13") && Catch::Contains("ring_plateau"));
}

TEST_CASE("nccl: NVLSTree's chunk is NCCL's, cut where each operation in flight would hold few", "[unit][nccl]") {
    // 16 compute channels x 8 heads = 128 operations; 128 KiB, at most 64 KiB from 4 nodes on; at most 64 KiB below
    // 4 x 128 chunks of 128 KiB (64 MiB), at most 32 KiB below 128 chunks of 64 KiB (8 MiB); at most one operation's bytes.
    const double KiB = 1024, MiB = 1024 * KiB;
    auto chunk = [](int nodes, double bytes) { return nccl_nvls_tree_chunk_bytes(nccl_defaults(), h100_nodes(nodes, bytes), std::nullopt); };
    CHECK(chunk(2, 16384 * MiB) == 128 * KiB);
    CHECK(chunk(2, 64 * MiB) == 128 * KiB);
    CHECK(chunk(2, 63 * MiB) == 64 * KiB);
    CHECK(chunk(2, 8 * MiB) == 64 * KiB);
    CHECK(chunk(2, 7 * MiB) == 32 * KiB);
    CHECK(chunk(2, 1 * MiB) == 8 * KiB);
    CHECK(chunk(4, 16384 * MiB) == 64 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(nccl_defaults(), h100_nodes(2, 16384 * MiB), 1 * MiB) == 1 * MiB);  // nccl.chunk
}

TEST_CASE("nccl: NVLS's chunk within a node is NCCL's, and its first wave one chunk's pass through the switch", "[unit][nccl]") {
    // 16 compute channels x 8 heads (the node's GPUs) = 128 operations; 128 KiB, at most 64 KiB below 64 x 128 chunks of
    // 128 KiB (1 GiB), 32 KiB below 8 x 128 of 64 KiB (64 MiB), 16 KiB below 2 x 128 of 32 KiB (8 MiB).
    const double KiB = 1024, MiB = 1024 * KiB;
    auto chunk = [](double bytes) { return nccl_nvls_chunk_bytes(nccl_defaults(), h100_nodes(1, bytes), std::nullopt); };
    CHECK(chunk(8192 * MiB) == 128 * KiB);
    CHECK(chunk(1024 * MiB) == 128 * KiB);
    CHECK(chunk(1023 * MiB) == 64 * KiB);
    CHECK(chunk(64 * MiB) == 64 * KiB);
    CHECK(chunk(16 * MiB) == 32 * KiB);
    CHECK(chunk(8 * MiB) == 32 * KiB);
    CHECK(chunk(7 * MiB) == 16 * KiB);
    CHECK(chunk(1 * MiB) == 8 * KiB);
    CHECK(nccl_nvls_chunk_bytes(nccl_defaults(), h100_nodes(1, 8192 * MiB), 1 * MiB) == 1 * MiB);  // nccl.chunk
    const auto call = h100_nodes(1, 16 * MiB);
    const double switch_rate = call.nvls_efficiency * call.intra_bytes_per_second / 128;
    CHECK(nccl_nvls_fill_s(nccl_defaults(), call, std::nullopt) == Approx(32 * KiB / switch_rate));
    const auto costs = nccl_call_costs(nccl_defaults(), call, {NcclAlgorithm::nvls, NcclProtocol::simple}, 1, std::nullopt);
    CHECK(costs.fill_s == Approx(32 * KiB / switch_rate));
}

TEST_CASE("nccl: PAT's latency and choice for reduce-scatters and all-gathers with one GPU per node (tuning.cc)", "[unit][nccl]") {
    // 128 nodes, one H100 each behind a 46 GB/s NIC. PAT: 8 + log2(128) x 14 / 3.5 + 128 x 2.8 = 394.4 µs for S at
    // 0.75 of the NIC; the ring: 8.4 + 127 x 14 = 1786.4 µs (every step crosses the network, at the tree's hop).
    NcclCall call;
    call.op = NetworkOp::allgather;
    call.ranks = call.nodes = 128;
    call.ranks_per_node = 1;
    call.intra_bytes_per_second = 369e9;
    call.inter_bytes_per_second = 46e9;
    const NcclChoice pat{NcclAlgorithm::pat, NcclProtocol::simple};
    CHECK(nccl_latency_s(nccl_defaults(), call, pat) == Approx(394.4e-6));
    CHECK(nccl_latency_s(nccl_defaults(), call, {NcclAlgorithm::ring, NcclProtocol::simple}) == Approx(1786.4e-6));
    // PAT wins while its latency counts: the ring's best, LL128 (14 + 127 x 8.5 = 1093.5 µs at 0.92), passes it at
    // (1093.5 - 394.4) µs / (1 / 0.75 - 127 / 128 / 0.92) / 46 GB/s = 126.2 MB.
    call.bytes = 1e6;
    CHECK((automatic(call).algorithm == NcclAlgorithm::pat));
    call.bytes = 0.99 * 126.2e6;
    CHECK((automatic(call).algorithm == NcclAlgorithm::pat));
    call.bytes = 1.01 * 126.2e6;
    CHECK((automatic(call).algorithm == NcclAlgorithm::ring));
    // Not with NCCL_PAT_ENABLE=0, not for an all-reduce, not with two GPUs per node.
    call.bytes = 100e6;
    NcclSpec disabled;
    disabled.pat = false;
    CHECK(choose_nccl(nccl_defaults(), call, disabled).algorithm == NcclAlgorithm::ring);
    auto allreduce = call;
    allreduce.op = NetworkOp::allreduce;
    CHECK(automatic(allreduce).algorithm != NcclAlgorithm::pat);
    auto two_per_node = call;
    two_per_node.ranks = 256;
    two_per_node.ranks_per_node = 2;
    CHECK(automatic(two_per_node).algorithm != NcclAlgorithm::pat);
}

TEST_CASE("nccl: scenario keys are read and bad values named", "[unit][nccl]") {
    const std::string ok = "{kind: allreduce, algorithm: nccl, nccl: {algorithm: tree, protocol: ll128, channels: 4, chunk: 1MiB}}";
    CHECK(error_of(ok).empty());
    CHECK_THAT(error_of("{kind: allreduce, algorithm: ring, nccl: {channels: 4}}"), Catch::Contains("applies only to algorithm: nccl"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {protocol: ll256}}"),
               Catch::Contains("s.yaml:5") && Catch::Contains("protocol") && Catch::Contains("ll128"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {channels: 0}}"), Catch::Contains("channels"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {chanels: 2}}"), Catch::Contains("chanels"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls}}", "nvlink3"), Catch::Contains("in_network_reduction"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: collnet}}"), Catch::Contains("in_network_reduction"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls, protocol: ll}}"),
               Catch::Contains("simple protocol only"));
    CHECK(error_of("{kind: allreduce, algorithm: nccl, nccl: {nvls: false}}").empty());
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls, nvls: false}}"),
               Catch::Contains("s.yaml:5") && Catch::Contains("nvls: false"));
    CHECK(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls-tree}}").empty());
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls-tree}}", "nvlink3"),
               Catch::Contains("nvls-tree needs") && Catch::Contains("in_network_reduction"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls-tree, protocol: ll128}}"),
               Catch::Contains("simple protocol only"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: nvls-tree, nvls: false}}"),
               Catch::Contains("nvls-tree, but nvls: false"));
    CHECK(error_of("{kind: allreduce, algorithm: nccl, nccl: {pat: false}}").empty());
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: pat, pat: false}}"), Catch::Contains("pat, but pat: false"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {algorithm: pat, protocol: ll}}"), Catch::Contains("simple protocol only"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {pat: sometimes}}"), Catch::Contains("pat"));
    CHECK_THAT(error_of("{kind: allreduce, algorithm: nccl, nccl: {nvls: maybe}}"), Catch::Contains("nvls"));
}

TEST_CASE("nccl: a tree's chunk is NCCL's, LL128's halved while each tree would hold too few", "[unit][nccl]") {
    // 8 nodes x 8 GPUs, 16 trees at once. LL128's step carries 614400 B of lines, 576000 of payload; NCCL halves it
    // while a tree holds fewer than (1 + log2 8 + 0.8) x 64 / 8 = 38.4 whole chunks (down to 131072 B), then fewer
    // than 9.6 (down to 32768 B), counting whole chunks as its integer division does.
    NcclCall call;
    call.ranks = 64;
    call.nodes = 8;
    call.ranks_per_node = 8;
    auto chunk = [&](double bytes, NcclProtocol protocol) {
        call.bytes = bytes;
        return nccl_tree_chunk_bytes(nccl_defaults(), call, protocol, 16, std::nullopt);
    };
    const double MiB = 1024.0 * 1024;
    CHECK(chunk(8192 * MiB, NcclProtocol::ll128) == 576000);  // 932 chunks per tree
    CHECK(chunk(128 * MiB, NcclProtocol::ll128) == 144000);   // 14, 29, then 58 chunks per tree
    CHECK(chunk(16 * MiB, NcclProtocol::ll128) == 72000);     // 1, 3, 7, then 14 (at most 131072 B, >= 9.6)
    CHECK(chunk(1 * MiB, NcclProtocol::ll128) == 18000);      // 72000, then 0 and 1 chunks: halved twice more
    CHECK(chunk(1 * MiB, NcclProtocol::simple) == 65536);     // Simple's 512 KiB step, at most a tree's 1 MiB / 16
    CHECK(chunk(16 * MiB, NcclProtocol::simple) == 512 * 1024);
    call.bytes = 16 * MiB;
    CHECK(nccl_tree_chunk_bytes(nccl_defaults(), call, NcclProtocol::ll128, 16, 8192.0) == 8192);  // nccl.chunk
}

}  // namespace nccl_model_test
