#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "dtsim/cost_model.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/hardware.hpp"
#include "dtsim/profile.hpp"
#include "dtsim/advise_study.hpp"
#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace scenario_test {

using namespace dtsim;

namespace {

const char* kBase = R"(name: base
cluster:
  nodes: 4
  gpus_per_node: 8
  gpu: h100-sxm
  nic: ib-ndr
model: {zoo: resnet50, batch_per_gpu: 64, precision: fp16}
training:
  iterations: 3
  strategy: {kind: allreduce, algorithm: ring, bucket: 25MB, overlap: true}
)";

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
    return test::scenario_load_error(text, "scenario.yaml", overrides);
}

}  // namespace

TEST_CASE("a scenario resolves presets and defaults", "[unit][scenario]") {
    const auto s = load_scenario_text(kBase, "scenario.yaml");
    CHECK(s.cluster.gpus() == 32);
    CHECK(s.cluster.nic.preset == "ib-ndr");
    CHECK(s.cluster.nic.bytes_per_second == Approx(50e9));
    CHECK(s.cluster.intra_node.preset == "nvlink4");  // the GPU preset's NVLink generation
    CHECK(s.cluster.network_model == NetworkModel::ideal);
    CHECK(s.training.strategy.bucket_bytes == 25e6);
    CHECK(s.model.precision == Precision::fp16);
    CHECK(CostModel(s).gradient_bytes() == Approx(25557032.0 * 2));
    CHECK(s.hash.size() == 16);
}

TEST_CASE("command-line overrides are applied and change the hash", "[unit][scenario]") {
    const auto base = load_scenario_text(kBase, "scenario.yaml");
    const auto changed = load_scenario_text(kBase, "scenario.yaml", {"cluster.nodes=16", "training.strategy.bucket=50MB"});
    CHECK(changed.cluster.nodes == 16);
    CHECK(changed.training.strategy.bucket_bytes == 50e6);
    CHECK(changed.hash != base.hash);
    const auto map_value = load_scenario_text(kBase, "scenario.yaml", {"cluster.nic={bandwidth: 200Gbps, latency: 3us}"});
    CHECK(map_value.cluster.nic.bytes_per_second == Approx(25e9));
    CHECK(map_value.cluster.nic.efficiency == 1.0);
}

TEST_CASE("every all-reduce algorithm is read from its name and printed back", "[unit][scenario]") {
    const std::vector<std::pair<std::string, AllReduceAlgorithm>> algorithms{
        {"ring", AllReduceAlgorithm::ring},
        {"tree", AllReduceAlgorithm::tree},
        {"halving-doubling", AllReduceAlgorithm::halving_doubling},
        {"hierarchical", AllReduceAlgorithm::hierarchical},
        {"direct", AllReduceAlgorithm::direct},
        {"nccl", AllReduceAlgorithm::nccl}};
    for (const auto& [name, algorithm] : algorithms) {
        const auto s = load_scenario_text(kBase, "scenario.yaml", {"training.strategy.algorithm=" + name});
        CHECK(s.training.strategy.algorithm == algorithm);
        CHECK(to_string(algorithm) == name);
    }
    CHECK_THAT(error_of(kBase, {"training.strategy.algorithm=tre"}), Catch::Contains("did you mean 'tree'?"));
}

TEST_CASE("errors name the file, line, key and what was expected", "[unit][scenario]") {
    const std::string wrong_unit = std::string(kBase) + "seed: 7\n";
    auto message = error_of(std::string(kBase).replace(std::string(kBase).find("ib-ndr"), 6, "{bandwidth: 40 gigs, latency: 2us}"));
    CHECK_THAT(message, Catch::Contains("scenario.yaml:6"));
    CHECK_THAT(message, Catch::Contains("key 'cluster.nic.bandwidth'"));
    CHECK_THAT(message, Catch::Contains("400Gbps"));

    message = error_of(std::string(kBase) + "trainig: {}\n");
    CHECK_THAT(message, Catch::Contains("key 'trainig'"));
    CHECK_THAT(message, Catch::Contains("did you mean 'training'"));

    message = error_of(kBase, {"cluster.nodes=0"});
    CHECK_THAT(message, Catch::Contains("--set cluster.nodes=0"));
    CHECK_THAT(message, Catch::Contains("key 'cluster.nodes'"));
}

TEST_CASE("single_gpu_step_time scales compute to the measured step", "[unit][scenario]") {
    const auto s = load_scenario_text(kBase, "scenario.yaml", {"model.single_gpu_step_time=97ms"});
    const CostModel scaled(s);
    CHECK(scaled.forward_s() + scaled.backward_s() == Approx(0.097).epsilon(1e-12));
    const CostModel unscaled(load_scenario_text(kBase, "scenario.yaml"));
    // The per-layer split is kept: every layer is scaled by the same factor.
    const double factor = scaled.layers()[10].forward_s / unscaled.layers()[10].forward_s;
    CHECK(scaled.layers()[40].backward_s / unscaled.layers()[40].backward_s == Approx(factor).epsilon(1e-12));
}

TEST_CASE("the direct model form spreads gradients evenly over backward", "[unit][scenario]") {
    const auto s = load_scenario_text(R"(name: direct
cluster: {nodes: 2, gpu: a100-sxm, nic: eth-100g}
model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}
training: {strategy: {kind: parameter-server, servers: 2}}
)",
                                      "direct.yaml");
    const CostModel costs(s);
    REQUIRE(costs.layers().size() == 4);
    CHECK(costs.gradient_bytes() == Approx(100e6));
    CHECK(costs.forward_s() == Approx(0.03));
    CHECK(costs.backward_s() == Approx(0.06));
    CHECK(costs.layers()[0].gradient_bytes == Approx(25e6));
    CHECK(s.training.strategy.kind == StrategyKind::parameter_server);
    CHECK(s.training.strategy.aggregation_bytes_per_second.has_value());
}

TEST_CASE("every shipped scenario loads", "[unit][scenario]") {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "scenarios")) {
        if (entry.path().extension() != ".yaml") continue;
        CAPTURE(entry.path().string());
        if (test::is_advise_study(entry.path()))
            CHECK_NOTHROW(load_advise_study(entry.path().string()));  // every option's scenario loads
        else
            CHECK_NOTHROW(load_scenario_file(entry.path().string()));
        ++count;
    }
    CHECK(count >= 3);
}

// Every quantity of what is shipped lies within its physical range (docs/scenario.md, "Ranges").
TEST_CASE("every benchmark scenario, hardware preset and shipped profile loads", "[unit][scenario][limits]") {
    int scenarios = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::source_dir() / "bench")) {
        const auto path = entry.path().string();
        if (entry.path().extension() != ".yaml" || path.find("/scenarios/") == std::string::npos) continue;
        // bench/accuracy's are templates: its run.sh writes the calibrated profile's path in for @PROFILE_n@.
        if (read_text_file(path).find("@PROFILE") != std::string::npos) continue;
        CAPTURE(path);
        CHECK_NOTHROW(load_scenario_file(path));
        ++scenarios;
    }
    CHECK(scenarios >= 40);
    for (const auto& name : list_data_names("hardware/gpu")) CHECK_NOTHROW(load_gpu_preset(name, "test"));
    for (const auto& name : list_data_names("hardware/network")) CHECK_NOTHROW(load_network_preset(name, "test"));
    for (const auto& name : list_data_names("hardware/node")) CHECK_NOTHROW(load_node_preset(name, "test"));
    int profiles = 0;
    for (const auto& folder : {test::source_dir() / "data" / "profiles", test::source_dir() / "bench" / "results"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
            const auto name = entry.path().filename().string();
            const bool profile = folder.filename() == "profiles" || name.find("profile") != std::string::npos;
            if (entry.path().extension() != ".json" || !profile) continue;
            CAPTURE(entry.path().string());
            CHECK_NOTHROW(load_profile_file(entry.path().string()));
            ++profiles;
        }
    CHECK(profiles >= 10);
}

TEST_CASE("faults and backup workers are read from the scenario and --set", "[unit][scenario]") {
    const auto s = load_scenario_text(
        kBase, "scenario.yaml",
        {"training.strategy.backup_workers=2",
         "training.stragglers={link_degradation: [{node: 1, nic: 0, fraction: 0.5, start: 1s, end: 2s}, {rank: 9, fraction: 0.25}],"
         " node_failure: {node: 2, at: 10s, recovery: restart-from-checkpoint, checkpoint_interval: 30s, checkpoint_cost: 2s}}"});
    CHECK(s.training.strategy.backup_workers == 2);
    const auto& links = s.training.stragglers.link_degradation;
    REQUIRE(links.size() == 2);
    CHECK(links[0] == LinkDegradationSpec{.node = 1, .nic = 0, .fraction = 0.5, .start_s = 1, .end_s = 2});
    CHECK(links[1].rank == 9);
    CHECK(links[1].node == -1);
    CHECK(links[1].start_s == 0);
    CHECK(std::isinf(links[1].end_s));
    const auto& failure = s.training.stragglers.node_failure;
    CHECK(failure.node == 2);
    CHECK(failure.at_s == 10);
    CHECK(failure.recovery == Recovery::restart_from_checkpoint);
    CHECK(failure.checkpoint_every_s == 30);   // a duration
    CHECK(failure.checkpoint_every_iterations == 0);
    CHECK(failure.checkpoint_cost_s == 2);
    CHECK(failure.restart_cost_s == 0);
    CHECK_FALSE(s.training.stragglers.any());  // faults do not change compute
    const auto by_iterations = load_scenario_text(
        kBase, "scenario.yaml", {"training.stragglers.node_failure={node: 0, at: 1s, recovery: restart-from-checkpoint, checkpoint_interval: 5}"});
    CHECK(by_iterations.training.stragglers.node_failure.checkpoint_every_iterations == 5);
    const auto drop = load_scenario_text(kBase, "scenario.yaml", {"training.stragglers.node_failure={node: 3, at: 1s, recovery: drop}"});
    CHECK(drop.training.stragglers.node_failure.recovery == Recovery::drop);
    CHECK(load_scenario_text(kBase, "scenario.yaml").training.strategy.backup_workers == 0);
    CHECK_FALSE(load_scenario_text(kBase, "scenario.yaml").training.stragglers.node_failure.any());
}

}  // namespace scenario_test
