#include "dtsim/sim/platform.hpp"

#include <simgrid/s4u/Engine.hpp>

#include "fabrics.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

void place_colocated_servers(const Scenario& scenario, Platform& platform) {
    const auto& strategy = scenario.training.strategy;
    if (strategy.kind != StrategyKind::parameter_server || strategy.placement != ServerPlacement::colocated) return;
    for (int p = 0; p < strategy.servers; ++p) {
        platform.server_hosts.push_back(platform.gpu_hosts[static_cast<size_t>(p) * scenario.cluster.gpus_per_node]);
        platform.server_nodes.push_back(p);
    }
}

}  // namespace

void configure_network_model(NetworkModel model) {
    if (model != NetworkModel::ideal) return;
    // Without these, CM02 applies TCP corrections and caps a flow at TCP-gamma / (2 × route latency).
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/latency-factor:1");
    sg4::Engine::set_config("network/bandwidth-factor:1");
    sg4::Engine::set_config("network/crosstraffic:0");
    sg4::Engine::set_config("network/TCP-gamma:0");
}

Platform build_platform(const Scenario& scenario) {
    Platform platform;
    // The builders put hosts in place by rank: a fabric may build nodes in another order.
    platform.gpu_hosts.resize(static_cast<size_t>(scenario.cluster.gpus()));
    for (int leaf = scenario.cluster.nodes; leaf < fabric_leaves(scenario); ++leaf)
        platform.server_nodes.push_back(leaf);
    platform.server_hosts.resize(platform.server_nodes.size());
    switch (scenario.cluster.fabric.topology) {
        case Topology::star: build_star(scenario, platform); break;
        case Topology::fat_tree: build_fat_tree(scenario, platform); break;
        case Topology::rail_optimized: build_rail_optimized(scenario, platform); break;
        case Topology::dragonfly: build_dragonfly(scenario, platform); break;
        case Topology::torus: build_torus(scenario, platform); break;
    }
    place_colocated_servers(scenario, platform);
    return platform;
}

}  // namespace dtsim::sim
