// The cost model: what a scenario's presets or profile make of its links, incast and compute.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "dtsim/codec_kernel.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/hardware.hpp"
#include "test_support.hpp"

namespace cost_model_test {

using namespace dtsim;

namespace {

constexpr double kLink = 50e6;

std::string cluster_scenario(const std::string& profile_line, const std::string& strategy) {
    return "name: costs\n" + profile_line +
           "cluster: {nodes: 4, gpus_per_node: 2, gpu: h100-sxm, nic: ib-ndr}\n"
           "model: {gradient_bytes: 40MB, forward_time: 10ms, backward_time: 20ms, batch_per_gpu: 8, layers: 4}\n"
           "training: {accumulation_steps: 3, strategy: " + strategy + "}\n";
}

// Ping-pongs within and across nodes, and an all-to-all over one rank on each of 4 nodes that kept 75 % of
// a perfectly shared port.
std::string write_incast_profile(const test::TempDir& dir) {
    auto profile = test::pingpong_profile("incast", LinkClass::inter_node, {{0, 20e-6, kLink}});
    profile.network.push_back(test::pingpong_profile("", LinkClass::intra_node, {{0, 2e-6, 10e9}}).network.front());
    NetworkFit alltoall = profile.network.front();
    alltoall.op = NetworkOp::alltoall;
    alltoall.ranks = alltoall.nodes = 4;
    alltoall.model.segments = {{0, 20e-6, 1e9}, {65536, -1e-4, kLink * 4 / 3 * 0.75}};
    profile.network.push_back(alltoall);
    const auto path = dir.path() / "incast.json";
    std::ofstream(path) << profile_to_json(profile);
    return path.string();
}

}  // namespace

TEST_CASE("without a profile, links and compute are the presets'", "[unit][cost-model]") {
    const auto scenario = load_scenario_text(cluster_scenario("", "{kind: allreduce}"), "costs.yaml");
    const CostModel costs(scenario);
    const auto nic = load_network_preset("ib-ndr", "test");
    const auto nvlink = load_network_preset(scenario.cluster.gpu.intra_node, "test");
    CHECK(costs.nic().source == "ib-ndr");
    CHECK(costs.nic().effective_bytes_per_second() == nic.bytes_per_second * nic.efficiency);
    CHECK(costs.nic().latency_s == nic.latency_s);
    CHECK(costs.intra_node().effective_bytes_per_second() == nvlink.bytes_per_second * nvlink.efficiency);
    // Ranks are node-major: 0 and 1 share a node, 1 and 2 do not.
    CHECK(&costs.link_between(0, 1) == &costs.intra_node());
    CHECK(&costs.link_between(1, 2) == &costs.nic());
    // A preset link adds nothing per message: the flow carries the bytes.
    const auto cost = costs.nic().message_cost(1e6);
    CHECK(cost.overhead_s == 0);
    CHECK(cost.wire_bytes == 1e6);
    CHECK(costs.port_incast().empty());
    CHECK_FALSE(costs.calibrates_group_size(NetworkOp::allreduce, 4));
    CHECK(costs.inter_node_pair_exchange_extra_s(1e6) == 0);
    // The direct form: equal layers, and one GPU's iteration is every micro-batch's forward and backward.
    REQUIRE(costs.layers().size() == 4);
    CHECK(costs.gradient_bytes() == Approx(40e6));
    CHECK(costs.single_gpu_iteration_s() == Approx(3 * 0.030).epsilon(1e-12));
}

TEST_CASE("tf32 trains fp32 tensors at the preset's TF32 peak; a GPU without one is refused", "[unit][cost-model]") {
    const auto zoo = [](const std::string& gpu, const std::string& precision) {
        return "name: tf32\ncluster: {nodes: 1, gpus_per_node: 1, gpu: " + gpu + ", nic: ib-ndr}\n"
               "model: {zoo: resnet50, batch_per_gpu: 8, precision: " + precision + "}\n"
               "training: {strategy: {kind: allreduce}}\n";
    };
    const auto scenario = load_scenario_text(zoo("a100-sxm", "tf32"), "tf32.yaml");
    const auto& gpu = scenario.cluster.gpu;
    const CostModel tf32(scenario), fp32(load_scenario_text(zoo("a100-sxm", "fp32"), "fp32.yaml"));
    CHECK(tf32.compute().flops_per_second == gpu.peak_flops_per_second.at(Precision::tf32) * gpu.gemm_efficiency);
    CHECK(tf32.compute().attention_flops_per_second ==
          Approx(gpu.peak_flops_per_second.at(Precision::tf32) * gpu.attention_efficiency));
    CHECK(tf32.gradient_bytes() == fp32.gradient_bytes());  // 4 bytes per element, as fp32
    // TF32 runs on the Tensor Cores, in the shape model's tiles; fp32 on the CUDA cores, every shape at the rate.
    CHECK(tf32.compute().streaming_multiprocessors == gpu.streaming_multiprocessors);
    CHECK(fp32.compute().streaming_multiprocessors == 0);
    CHECK(tf32.forward_s() < fp32.forward_s());
    CHECK_THROWS_WITH(load_scenario_text(zoo("v100-sxm2", "tf32"), "v100.yaml"),
                      Catch::Contains("key 'model.precision'") && Catch::Contains("no tf32 peak"));
}

TEST_CASE("a profile's incast reaches the ports where senders start together", "[unit][cost-model]") {
    test::TempDir dir;
    const auto profile_line = "profile: " + write_incast_profile(dir) + "\n";
    auto costs_of = [&](const std::string& strategy) {
        return CostModel(load_scenario_text(cluster_scenario(profile_line, strategy), "costs.yaml"));
    };
    const auto ring = costs_of("{kind: allreduce}");
    CHECK(ring.nic().source == "profile:incast");
    CHECK(ring.nic().effective_bytes_per_second() == kLink);
    REQUIRE_FALSE(ring.port_incast().empty());
    CHECK(ring.port_incast().efficiency(3) == Approx(0.75));
    CHECK(ring.calibrates_group_size(NetworkOp::alltoall, 4));
    CHECK(ring.calibrated_collective(NetworkOp::alltoall, 4, 4) != nullptr);
    CHECK(ring.calibrated_collective(NetworkOp::alltoall, 4, 2) == nullptr);
    // The ping-pongs are point-to-point fits, never calibrated collectives.
    CHECK_FALSE(ring.calibrates_group_size(NetworkOp::pingpong, 2));
    CHECK(costs_of("{kind: parameter-server, sync: sync}").port_incast().efficiency(3) == Approx(0.75));
    // Asynchronous and stale-synchronous workers drift apart: their ports are shared perfectly. SSP(0) is
    // synchronous: its workers push together.
    CHECK(costs_of("{kind: parameter-server, sync: async}").port_incast().empty());
    CHECK(costs_of("{kind: parameter-server, sync: ssp, staleness: 1}").port_incast().empty());
    CHECK(costs_of("{kind: parameter-server, sync: ssp, staleness: 0}").port_incast().efficiency(3) == Approx(0.75));
    auto replay = costs_of("{kind: allreduce}");
    replay.share_ports_perfectly();
    CHECK(replay.port_incast().empty());
}

TEST_CASE("every name table names each value once and reads it back", "[unit][vocabulary]") {
    auto check = [](const auto& table) {
        std::set<std::string_view> seen;
        for (const auto& [value, name] : table.entries) {
            CAPTURE(name);
            CHECK(seen.insert(name).second);
            CHECK(table.name(value) == name);
            REQUIRE(table.parse(name).has_value());
            CHECK(*table.parse(name) == value);
        }
        CHECK_FALSE(table.parse("no-such-name").has_value());
    };
    check(kTopologyNames);
    check(kNetworkModelNames);
    check(kFidelityNames);
    check(kStrategyKindNames);
    check(kAllReduceAlgorithmNames);
    check(kServerPlacementNames);
    check(kSyncModeNames);
    check(kShardingNames);
    check(kCompressionKindNames);
    check(kRecoveryNames);
    check(kJitterDistributionNames);
    check(kPrecisionNames);
    check(kNetworkOpNames);
    check(kTimingModeNames);
    check(kLinkClassNames);
    check(kCodecKernelNames);
    // The enums' last values are in their tables: a value added without a name fails here.
    CHECK(kTopologyNames.name(Topology::torus) == "torus");
    CHECK(kAllReduceAlgorithmNames.name(AllReduceAlgorithm::direct) == "direct");
    CHECK(kNetworkOpNames.name(NetworkOp::loaded_pingpong) == "loaded_pingpong");
    CHECK(kCompressionKindNames.name(CompressionKind::powersgd) == "powersgd");
    CHECK(kNetworkOpNames.choices() ==
          "allreduce | allgather | reducescatter | broadcast | alltoall | sendrecv | exchange | pingpong | loaded_pingpong");
}

TEST_CASE("training.optimizer: one memory-bound step over every parameter, none without it", "[unit][cost-model]") {
    const auto costs_of = [](const std::string& precision, const std::string& optimizer, const std::string& strategy = "allreduce") {
        return CostModel(load_scenario_text(
            "name: step\ncluster: {nodes: 1, gpus_per_node: 1, gpu: a100-sxm, nic: ib-ndr}\n"
            "model: {zoo: resnet50, batch_per_gpu: 8, precision: " + precision + "}\n"
            "training: {accumulation_steps: 2, strategy: {kind: " + strategy + "}" +
                (optimizer.empty() ? "" : ", optimizer: " + optimizer) + "}\n",
            "step.yaml"));
    };
    const auto gpu = load_gpu_preset("a100-sxm", "test");
    const double memory = gpu.memory_bytes_per_second * gpu.memory_efficiency;
    const double parameters = load_zoo_model("resnet50", "test").total_parameters();
    // Bytes per parameter: read and write the states and the weights stepped, read the gradient.
    // SGD in fp32: momentum 2×4, gradient 4, weights 2×4 = 20. Adam in mixed precision with an fp32 master
    // copy: m, v and master 2×12, fp16 gradient 2, fp16 working copy written 2 = 28; without the master
    // copy: 2×8 + 2 + 2×2 = 22.
    const struct {
        std::string precision, optimizer;
        double bytes;
    } cases[] = {{"fp32", "{kind: sgd}", 20}, {"fp16", "{kind: adam}", 28}, {"fp16", "{kind: adam, master_weights: none}", 22}};
    for (const auto& c : cases) {
        CAPTURE(c.precision, c.optimizer);
        const auto costs = costs_of(c.precision, c.optimizer);
        CHECK(costs.optimizer_step_s() == Approx(parameters * c.bytes / memory).epsilon(1e-12));
        // Once per iteration, after both micro-batches.
        CHECK(costs.single_gpu_iteration_s() ==
              Approx(2 * (costs.forward_s() + costs.backward_s()) + costs.optimizer_step_s()).epsilon(1e-12));
    }
    const auto none = costs_of("fp32", "");
    CHECK(none.optimizer_step_s() == 0);
    CHECK(none.single_gpu_iteration_s() == Approx(2 * (none.forward_s() + none.backward_s())).epsilon(1e-12));
    CHECK_THROWS_WITH(costs_of("fp32", "{kind: sgd}", "parameter-server"),
                      Catch::Contains("key 'training.optimizer'") && Catch::Contains("parameter server"));
}

}  // namespace cost_model_test
