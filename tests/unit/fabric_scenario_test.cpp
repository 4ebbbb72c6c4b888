// The cluster's NICs and fabric as a scenario gives them.
#include <catch2/catch.hpp>

#include "dtsim/cost_model.hpp"
#include "dtsim/scenario.hpp"

namespace fabric_scenario_test {

using namespace dtsim;

namespace {

const char* const kRest = "model: {gradient_bytes: 1MB, forward_time: 1ms, backward_time: 2ms, batch_per_gpu: 1}\n"
                          "training: {strategy: {kind: allreduce}}\n";

// 4 nodes of 8 H100s.
Scenario with_cluster(const std::string& nic, const std::string& fabric, const std::string& extra = "") {
    const auto cluster =
        "cluster: {nodes: 4, gpus_per_node: 8, gpu: h100-sxm, nic: " + nic + ", fabric: " + fabric + "}\n";
    return load_scenario_text("name: s\n" + extra + cluster + kRest, "s.yaml");
}

}  // namespace

TEST_CASE("nic count: one NIC unless given, consecutive GPUs share one", "[unit][scenario]") {
    CHECK(with_cluster("ib-ndr", "{topology: star}").cluster.nics_per_node == 1);
    const auto two = with_cluster("{count: 2, preset: ib-ndr}", "{topology: star}").cluster;
    CHECK(two.nics_per_node == 2);
    CHECK(two.nic.preset == "ib-ndr");
    CHECK(two.nic_of_gpu(0) == 0);
    CHECK(two.nic_of_gpu(3) == 0);
    CHECK(two.nic_of_gpu(4) == 1);
    CHECK(two.nic_of_gpu(7) == 1);
    const auto eight = with_cluster("{count: 8, bandwidth: 400Gbps, latency: 2us}", "{topology: rail-optimized}");
    for (int gpu = 0; gpu < 8; ++gpu) CHECK(eight.cluster.nic_of_gpu(gpu) == gpu);
}

TEST_CASE("nic count with a profile: the profile gives the link, the count says how many", "[unit][scenario]") {
    const auto profile = "profile: dgx-h100.datasheet\n";
    const auto scenario = with_cluster("{count: 8}", "{topology: rail-optimized}", profile);
    CHECK(scenario.cluster.nics_per_node == 8);
    CHECK(CostModel(scenario).nic().calibrated.has_value());
}

TEST_CASE("fabric topologies and their keys", "[unit][scenario]") {
    const auto fat_tree =
        with_cluster("ib-ndr", "{topology: fat-tree, radix: 16, levels: 3, oversubscription: 2}").cluster.fabric;
    CHECK(fat_tree.topology == Topology::fat_tree);
    CHECK(fat_tree.radix == 16);
    CHECK(fat_tree.levels == 3);
    CHECK(fat_tree.oversubscription == 2);
    CHECK(with_cluster("ib-ndr", "{topology: fat-tree}").cluster.fabric.levels == 2);

    const auto rail =
        with_cluster("{count: 8, preset: ib-ndr}", "{topology: rail-optimized, oversubscription: 4}").cluster.fabric;
    CHECK(rail.topology == Topology::rail_optimized);
    CHECK(rail.oversubscription == 4);

    const auto dragonfly = with_cluster("ib-ndr", "{topology: dragonfly, groups: 2, routers_per_group: 2, "
                                                  "nodes_per_router: 1, global_links: 3}")
                               .cluster.fabric;
    CHECK(dragonfly.topology == Topology::dragonfly);
    CHECK(dragonfly.dragonfly.positions() == 4);
    CHECK(dragonfly.dragonfly.global_links == 3);

    const auto torus = with_cluster("ib-ndr", "{topology: torus, dimensions: [2, 2, 1]}").cluster.fabric;
    CHECK(torus.topology == Topology::torus);
    CHECK(torus.dimensions == std::vector<int>{2, 2, 1});
    CHECK(to_string(Topology::rail_optimized) == "rail-optimized");
}

TEST_CASE("fabric errors name the key, also when --set gave it", "[unit][scenario]") {
    CHECK_THROWS_WITH(with_cluster("ib-ndr", "{topology: torus, dimensions: [1, 3]}"),
                      Catch::Contains("key 'cluster.fabric.dimensions'") &&
                          Catch::Contains("has 3 positions but the cluster needs 4"));
    const std::string text = std::string("name: s\ncluster: {nodes: 4, gpu: h100-sxm, nic: ib-ndr}\n") + kRest;
    CHECK_THROWS_WITH(load_scenario_text(text, "s.yaml", {"cluster.fabric={topology: torus, dimensions: [2, x]}"}),
                      Catch::Contains("command line (--set cluster.fabric=") &&
                          Catch::Contains("key 'cluster.fabric.dimensions[1]'"));
}

}  // namespace fabric_scenario_test
