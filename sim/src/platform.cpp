#include "dtsim/sim/platform.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include <xbt/config.hpp>

#include <algorithm>
#include <cmath>

#include "fabrics.hpp"
#include "platform_leaves.hpp"

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

// The one-way latency of the route between two hosts.
double route_latency_s(sg4::Host* from, sg4::Host* to) {
    std::vector<sg4::Link*> links;
    double latency = 0;
    from->route_to(to, links, &latency);
    return latency;
}

// Gives each endpoint's port to the striped server group the latency of its routes to the servers, or
// simulates the servers one by one after all (clears the ports) where those latencies differ. The port's
// flow is capped by the TCP window as one flow, where the shards were each: keep the cap out of reach.
void connect_server_group(const Scenario& scenario, const LinkModel& nic_link, Platform& platform) {
    if (!platform.stripes_servers) return;
    const auto& cluster = scenario.cluster;
    const int per_nic = cluster.gpus_per_node / cluster.nics_per_node;
    const double gamma = simgrid::config::get_value<double>("network/TCP-gamma");
    const double latency_factor = simgrid::config::get_value<double>("network/latency-factor");
    // A port link given its latency before the group is dropped stays unused.
    for (size_t e = 0; e < platform.server_group_ports.size(); ++e) {
        auto* gpu = platform.gpu_hosts[e * static_cast<size_t>(per_nic)];
        const double latency = route_latency_s(gpu, platform.server_hosts.front());
        const bool equally_far = std::all_of(platform.server_hosts.begin(), platform.server_hosts.end(), [&](sg4::Host* server) {
            return std::abs(route_latency_s(gpu, server) - latency) <= 1e-15 * (1 + latency);
        });
        const bool window_capped = gamma > 0 && nic_link.effective_bytes_per_second() * 2 * latency * latency_factor >= gamma;
        if (!equally_far || window_capped) {
            platform.server_group_ports.clear();
            platform.stripes_servers = false;
            return;
        }
        const int node = static_cast<int>(e) / cluster.nics_per_node, nic = static_cast<int>(e) % cluster.nics_per_node;
        sg4::Engine::get_instance()->split_duplex_link_by_name(server_group_port_name(node, nic))->set_latency(latency);
    }
}

}  // namespace

bool stripes_parameter_servers(const Scenario& scenario) {
    const auto& training = scenario.training;
    const auto& strategy = training.strategy;
    const auto& fabric = scenario.cluster.fabric;
    const bool full_bisection = fabric.topology == Topology::star || (fabric.topology == Topology::fat_tree && fabric.oversubscription == 1);
    return training.fidelity == Fidelity::flow && strategy.kind == StrategyKind::parameter_server && strategy.servers > 1 &&
           strategy.placement == ServerPlacement::dedicated && strategy.sharding == Sharding::by_size &&
           strategy.backup_workers == 0 && training.stragglers.link_degradation.empty() &&
           !training.stragglers.node_failure.any() && scenario.debug.lose_message_to_rank < 0 && full_bisection;
}

void configure_network_model(NetworkModel model) {
    if (model != NetworkModel::ideal) return;
    // Without these, CM02 applies TCP corrections and caps a flow at TCP-gamma / (2 × route latency).
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/latency-factor:1");
    sg4::Engine::set_config("network/bandwidth-factor:1");
    sg4::Engine::set_config("network/crosstraffic:0");
    sg4::Engine::set_config("network/TCP-gamma:0");
}

Platform build_platform(const Scenario& scenario, const CostModel& costs) {
    Platform platform;
    // The builders put hosts in place by rank: a fabric may build nodes in another order.
    platform.gpu_hosts.resize(static_cast<size_t>(scenario.cluster.gpus()));
    for (int leaf = scenario.cluster.nodes; leaf < fabric_leaves(scenario); ++leaf)
        platform.server_nodes.push_back(leaf);
    platform.server_hosts.resize(platform.server_nodes.size());
    platform.stripes_servers = stripes_parameter_servers(scenario);
    if (platform.stripes_servers)
        platform.server_group_ports.resize(static_cast<size_t>(scenario.cluster.nodes * scenario.cluster.nics_per_node));
    switch (scenario.cluster.fabric.topology) {
        case Topology::star: build_star(scenario, costs, platform); break;
        case Topology::fat_tree: build_fat_tree(scenario, costs, platform); break;
        case Topology::rail_optimized: build_rail_optimized(scenario, costs, platform); break;
        case Topology::dragonfly: build_dragonfly(scenario, costs, platform); break;
        case Topology::torus: build_torus(scenario, costs, platform); break;
    }
    place_colocated_servers(scenario, platform);
    connect_server_group(scenario, costs.nic(), platform);
    return platform;
}

// One host per `ranks` consecutive ranks, with the shared cores: SimGrid shares a host's cores among the
// executions on it, each at most one core's speed, as a machine's scheduler shares its cores among busy ranks.
void seal_root_zone(const Scenario& scenario, const CostModel& costs, Platform& platform, sg4::NetZone* root) {
    if (const auto& shared = costs.compute().shared_cores) {
        auto* zone = sg4::create_full_zone("cpu-pools");
        zone->set_parent(root);
        const int pools = (scenario.cluster.gpus() + shared->ranks - 1) / shared->ranks;
        for (int p = 0; p < pools; ++p)
            platform.cpu_pools.push_back(
                zone->create_host("cpu-pool-" + std::to_string(p), kPoolCoreSpeed)->set_core_count(shared->cores)->seal());
        zone->seal();
        platform.ranks_per_cpu_pool = shared->ranks;
    }
    root->seal();
}

sg4::Host* Platform::cpu_pool_of(int rank) const {
    if (cpu_pools.empty() || rank < 0) return nullptr;
    return cpu_pools[std::min(cpu_pools.size() - 1, static_cast<size_t>(rank / ranks_per_cpu_pool))];
}

}  // namespace dtsim::sim
