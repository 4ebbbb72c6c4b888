// A scenario's `profile:` replaces preset link and compute costs with the profile's fits.
#include <catch2/catch.hpp>

#include <fstream>

#include "dtsim/calibrate/datasheet_profile.hpp"
#include "dtsim/compute_model.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace profile_scenario_test {

using namespace dtsim;

namespace {

Profile two_class_profile() {
    Profile p;
    p.name = "calibrated";
    p.source = "measured";
    p.environment_json = R"({"ranks": 4})";
    p.network.push_back({NetworkOp::pingpong, TimingMode::latency, LinkClass::intra_node, 2, 1, {{{0, 2e-6, 5e9}, {65536, 9e-6, 8e9}}}, {}, {}});
    p.network.push_back({NetworkOp::pingpong, TimingMode::latency, LinkClass::inter_node, 2, 2, {{{0, 40e-6, 100e6}, {1 << 20, 60e-6, 117e6}}}, {}, {}});
    ComputeProfile compute;
    compute.device = "cpu";
    compute.gemm.push_back({Precision::fp32, 20e-6, 50e9, {}});
    compute.memory_bytes_per_second = 10e9;
    p.compute = compute;
    return p;
}

std::string write_profile(const test::TempDir& dir, const Profile& profile) {
    const auto path = dir.file("profile.json");
    std::ofstream(path) << profile_to_json(profile);
    return path;
}

std::string scenario_with(const std::string& profile_path, const std::string& extra_model = "") {
    return "name: p\nprofile: " + profile_path +
           "\ncluster: {nodes: 2, gpus_per_node: 2, gpu: cpu}\n"
           "model: {zoo: resnet50, batch_per_gpu: 4" + extra_model + "}\n"
           "training: {iterations: 1, strategy: {kind: allreduce}}\n";
}

}  // namespace

TEST_CASE("a profile sets link latency, bandwidth and per-message overheads", "[unit][profile]") {
    test::TempDir dir;
    const auto scenario = load_scenario_text(scenario_with(write_profile(dir, two_class_profile())), "s.yaml");
    const CostModel costs(scenario);
    const auto& intra = costs.intra_node();
    CHECK(intra.source == "profile:calibrated");
    CHECK(intra.latency_s == 2e-6);                  // first segment's alpha
    CHECK(intra.effective_bytes_per_second() == 8e9);  // last segment's bandwidth
    const auto& nic = costs.nic();
    CHECK(nic.latency_s == 40e-6);
    CHECK(nic.effective_bytes_per_second() == 117e6);
    // An isolated message costs exactly the fitted one-way time.
    for (double bytes : {8.0, 4096.0, 65536.0, 1e6, 1e8}) {
        CAPTURE(bytes);
        const PiecewiseAlphaBeta inter{{{0, 40e-6, 100e6}, {1 << 20, 60e-6, 117e6}}};
        const auto cost = nic.message_cost(bytes);
        CHECK(nic.latency_s + cost.wire_bytes / nic.effective_bytes_per_second() + cost.overhead_s ==
              Approx(inter.seconds(bytes)).epsilon(1e-12));
    }
    REQUIRE(scenario.profile);
    CHECK(scenario.profile->source == "measured");
}

TEST_CASE("a profile's GEMM curve sets layer compute times", "[unit][profile]") {
    test::TempDir dir;
    const auto with = load_scenario_text(scenario_with(write_profile(dir, two_class_profile())), "s.yaml");
    const auto zoo = load_zoo_model("resnet50", "test");
    const auto expected = layer_times(zoo, 4, Precision::fp32, ComputeRates{50e9, 10e9, 20e-6, 0});
    const CostModel costs(with);
    // Attention's core: the fitted GEMM rate times the preset's attention ÷ GEMM efficiency.
    const auto& gpu = with.cluster.gpu;
    CHECK(costs.compute().attention_flops_per_second == Approx(50e9 * gpu.attention_efficiency / gpu.gemm_efficiency));
    REQUIRE(costs.layers().size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) CHECK(costs.layers()[i].forward_s == expected[i].forward_s);
    CHECK(expected.front().forward_s > 20e-6);  // the fixed cost is in every layer
}

TEST_CASE("a profile that lacks what the scenario needs is refused at the profile key", "[unit][profile]") {
    test::TempDir dir;
    auto one_node = two_class_profile();
    one_node.network.pop_back();  // no inter-node fit
    const auto path = write_profile(dir, one_node);
    CHECK_THROWS_WITH(load_scenario_text(scenario_with(path), "s.yaml"),
                      Catch::Contains("s.yaml:2: key 'profile'") && Catch::Contains("no inter_node point-to-point fit"));
    CHECK_THROWS_WITH(load_scenario_text(scenario_with(path) + "", "s.yaml", {"model.precision=fp16", "cluster.nodes=1", "cluster.nic=eth-1g"}),
                      Catch::Contains("has no fp16 GEMM fit (it has: fp32)"));
    CHECK_THROWS_WITH(load_scenario_text(scenario_with(path, ", efficiency: 0.5"), "s.yaml", {"cluster.nodes=1", "cluster.nic=eth-1g"}),
                      Catch::Contains("key 'model.efficiency'") && Catch::Contains("conflicts with the profile"));
    CHECK_THROWS_WITH(load_scenario_text(scenario_with(dir.file("missing.json")), "s.yaml"),
                      Catch::Contains("key 'profile'") && Catch::Contains("no such file"));
    CHECK_THROWS_WITH(load_scenario_text(scenario_with("dgx-h101.datasheet"), "s.yaml"),
                      Catch::Contains("did you mean 'dgx-h100.datasheet'"));
}

TEST_CASE("shipped datasheet profiles are what the presets give today", "[unit][profile]") {
    struct Shipped {
        const char* name;
        const char* gpu;
        const char* nic;
    };
    for (const auto& s : {Shipped{"dgx-h100.datasheet", "h100-sxm", "ib-ndr"}, Shipped{"dgx-a100.datasheet", "a100-sxm", "ib-hdr"},
                          Shipped{"hgx-h200.datasheet", "h200", "ib-ndr"}, Shipped{"dgx-b200.datasheet", "b200", "ib-ndr"},
                          Shipped{"v100-25gbe.datasheet", "v100-sxm2", "eth-25g"}}) {
        CAPTURE(s.name);
        const auto gpu = load_gpu_preset(s.gpu, "test");
        const auto expected = calibrate::datasheet_profile(s.name, gpu, load_network_preset(gpu.intra_node, "test"),
                                                           load_network_preset(s.nic, "test"));
        const auto shipped = load_profile_file((test::source_dir() / "data" / "profiles" / (std::string(s.name) + ".json")).string());
        CHECK(profile_to_json(shipped) == profile_to_json(expected));
        CHECK(shipped.source == "datasheet");
    }
}

TEST_CASE("a profile round-trips through the runs database", "[unit][profile][store]") {
    test::TempDir dir;
    const auto profile = two_class_profile();
    const auto text = profile_to_json(profile);
    std::int64_t id = 0;
    {
        RunStore store(dir.file("runs.db"));
        id = store.append_profile(profile.name, profile.source, text);
    }
    RunStore reopened(dir.file("runs.db"));
    const auto loaded = reopened.load_profile_json(id);
    REQUIRE(loaded);
    CHECK(profile_to_json(profile_from_json(*loaded, "db")) == text);
    const auto listed = reopened.list_profiles();
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].name == "calibrated");
    CHECK(!reopened.load_profile_json(id + 1));
}

TEST_CASE("a profile's inter-node pair exchange reaches the cluster with its ring step", "[unit][profile]") {
    test::TempDir dir;
    auto profile = two_class_profile();
    // Without an exchange fit, nothing is added to same-peer exchanges.
    CHECK(CostModel(load_scenario_text(scenario_with(write_profile(dir, profile)), "s.yaml")).inter_node_pair_exchange_extra_s(6e6) == 0);
    NetworkFit ring_step{NetworkOp::sendrecv, TimingMode::latency, LinkClass::inter_node, 4, 4, {{{0, 40e-6, 100e6}}}, {}, {}};
    NetworkFit exchange{NetworkOp::exchange, TimingMode::latency, LinkClass::inter_node, 2, 2, {{{0, 40e-6, 60e6}}}, {}, {}};
    profile.network.push_back(exchange);
    CHECK_FALSE(profile.pair_exchange(LinkClass::inter_node));  // an exchange alone has nothing to compare with
    profile.network.push_back(ring_step);
    const CostModel costs(load_scenario_text(scenario_with(write_profile(dir, profile)), "s.yaml"));
    // 6 MB: 100 ms at 60 MB/s against 60 ms at 100 MB/s.
    CHECK(costs.inter_node_pair_exchange_extra_s(6e6) == Approx(0.04).epsilon(1e-9));
    // Neither fit is a calibrated collective, and the link stays the ring step's (preferred to ping-pongs).
    CHECK_FALSE(costs.calibrates_group_size(NetworkOp::sendrecv, 4));
    CHECK_FALSE(costs.calibrates_group_size(NetworkOp::exchange, 2));
    CHECK(costs.nic().effective_bytes_per_second() == Approx(100e6));
    // Never negative: an exchange faster than the ring step adds nothing.
    std::swap(profile.network[profile.network.size() - 2].model, profile.network.back().model);
    CHECK(profile.pair_exchange(LinkClass::inter_node)->extra_s(6e6) == 0);
}

}  // namespace profile_scenario_test
