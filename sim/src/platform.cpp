#include "dtsim/sim/platform.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <functional>
#include <string>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace {

// Stands for paths that are never the bottleneck here (a GPU to its NIC, a host to itself): SimGrid
// forbids empty routes, so they cross a fat pipe this fast, which adds under 1e-9 s per 100 MB.
constexpr double kUnboundedBytesPerSecond = 1e18;

sg4::Link* duplex_link(sg4::NetZone* zone, const std::string& name, double bytes_per_second, double latency_s) {
    return zone->create_split_duplex_link(name, bytes_per_second)->set_latency(latency_s)->seal();
}

std::string node_name(int node) { return "node-" + std::to_string(node); }
std::string server_name(int server) { return "server-" + std::to_string(server); }

int dedicated_servers(const Scenario& scenario) {
    const auto& strategy = scenario.training.strategy;
    return strategy.kind == StrategyKind::parameter_server && strategy.placement == ServerPlacement::dedicated
               ? strategy.servers
               : 0;
}

// SimGrid checks every new link's name against the whole platform, walking every zone. Creating all
// links in the root zone before any node zone exists keeps that check cheap: building a 16k-GPU
// platform goes from tens of seconds to well under one.
class LinkPool {
public:
    LinkPool(sg4::NetZone* root, const Scenario& scenario) {
        const auto& cluster = scenario.cluster;
        // One per node and server: a route must not cross the same link twice (SimGrid 3.32 then
        // mis-shares bandwidth among the flows on it).
        const int leaves = cluster.nodes + dedicated_servers(scenario);
        for (int leaf = 0; leaf < leaves; ++leaf)
            local_.push_back(root->create_link("local-" + std::to_string(leaf), kUnboundedBytesPerSecond)
                                 ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                                 ->seal());
        if (cluster.gpus_per_node > 1)
            for (int n = 0; n < cluster.nodes; ++n)
                for (int g = 0; g < cluster.gpus_per_node; ++g)
                    // Each GPU's link carries half the one-way GPU-to-GPU latency: a route crosses two of them.
                    intra_.push_back(duplex_link(root, "nvlink-" + std::to_string(n) + "-" + std::to_string(g),
                                                 cluster.intra_node.effective_bytes_per_second(), cluster.intra_node.latency_s / 2));
    }
    sg4::Link* local(int leaf) const { return local_[static_cast<size_t>(leaf)]; }
    sg4::Link* intra(int node, int gpu, int gpus_per_node) const {
        return intra_[static_cast<size_t>(node) * gpus_per_node + gpu];
    }

private:
    std::vector<sg4::Link*> local_;
    std::vector<sg4::Link*> intra_;
};

// A node is a full zone: GPUs reach each other through their own intra-node link (NVLink/NVSwitch-like),
// and reach the node's NIC router directly (GPUDirect over PCIe is not the bottleneck modelled here).
// Dedicated parameter servers get a node of their own with one host, so that the fabric only ever
// connects node zones (SimGrid 3.32 misroutes star zones that mix hosts and sub-zones).
std::pair<NetPoint*, NetPoint*> build_node(sg4::NetZone* parent, const std::string& name, int host_count,
                                           const std::function<sg4::Link*(int)>& intra_link, sg4::Link* local,
                                           std::vector<sg4::Host*>& hosts_out) {
    auto* zone = sg4::create_full_zone(name);
    zone->set_parent(parent);
    auto* nic = zone->create_router("nic-" + name);
    std::vector<sg4::Host*> hosts;
    for (int g = 0; g < host_count; ++g) hosts.push_back(zone->create_host("host-" + name + "-" + std::to_string(g), kHostSpeed));
    for (int a = 0; a < host_count; ++a) {
        auto* from = hosts[a]->get_netpoint();
        zone->add_route(from, from, nullptr, nullptr, {sg4::LinkInRoute(local)}, false);
        zone->add_route(from, nic, nullptr, nullptr, {sg4::LinkInRoute(local)}, true);
        for (int b = 0; b < host_count; ++b) {
            if (a == b) continue;
            zone->add_route(from, hosts[b]->get_netpoint(), nullptr, nullptr,
                            {{intra_link(a), sg4::LinkInRoute::Direction::UP}, {intra_link(b), sg4::LinkInRoute::Direction::DOWN}},
                            false);
        }
    }
    zone->seal();
    hosts_out.insert(hosts_out.end(), hosts.begin(), hosts.end());
    return {zone->get_netpoint(), nic};
}

// Builds leaf `leaf` of the fabric: a GPU node, a dedicated server node, or nothing.
std::pair<NetPoint*, NetPoint*> build_leaf(sg4::NetZone* parent, int leaf, const Scenario& scenario, const LinkPool& links,
                                           Platform& platform) {
    const auto& cluster = scenario.cluster;
    if (leaf < cluster.nodes) {
        auto intra = [&](int gpu) { return links.intra(leaf, gpu, cluster.gpus_per_node); };
        return build_node(parent, node_name(leaf), cluster.gpus_per_node, intra, links.local(leaf), platform.gpu_hosts);
    }
    const int server = leaf - cluster.nodes;
    platform.server_nodes.push_back(leaf);
    return build_node(parent, server_name(server), 1, [](int) { return nullptr; }, links.local(leaf), platform.server_hosts);
}

void place_colocated_servers(const Scenario& scenario, Platform& platform) {
    const auto& strategy = scenario.training.strategy;
    if (strategy.kind != StrategyKind::parameter_server || strategy.placement != ServerPlacement::colocated) return;
    for (int p = 0; p < strategy.servers; ++p) {
        platform.server_hosts.push_back(platform.gpu_hosts[static_cast<size_t>(p) * scenario.cluster.gpus_per_node]);
        platform.server_nodes.push_back(p);
    }
}

void build_star(const Scenario& scenario, Platform& platform) {
    const auto& nic = scenario.cluster.nic;
    auto* fabric = sg4::create_star_zone("fabric");
    const LinkPool links(fabric, scenario);
    const int leaves = scenario.cluster.nodes + dedicated_servers(scenario);
    // The NIC latency is one-way host to host: each end's NIC link carries half of it.
    std::vector<sg4::Link*> nic_links;
    for (int leaf = 0; leaf < leaves; ++leaf)
        nic_links.push_back(duplex_link(fabric, "nic-link-" + std::to_string(leaf), nic.effective_bytes_per_second(), nic.latency_s / 2));
    for (int leaf = 0; leaf < leaves; ++leaf) {
        auto [zone, gateway] = build_leaf(fabric, leaf, scenario, links, platform);
        fabric->add_route(zone, nullptr, gateway, nullptr, {{nic_links[static_cast<size_t>(leaf)], sg4::LinkInRoute::Direction::UP}}, true);
    }
    fabric->seal();
}

// Two-level fat-tree (one level when every leaf fits on one switch): `radix` leaves per leaf switch and
// radix / oversubscription up-links from each leaf switch. Every link has the NIC's bandwidth; the NIC
// latency is spread so that the longest host-to-host path has exactly that one-way latency.
void build_fat_tree(const Scenario& scenario, Platform& platform) {
    const auto& cluster = scenario.cluster;
    const auto used_leaves = static_cast<unsigned>(cluster.nodes + dedicated_servers(scenario));
    const auto radix = static_cast<unsigned>(cluster.fabric.radix);
    const bool one_level = used_leaves <= radix;
    const unsigned leaves = one_level ? used_leaves : (used_leaves + radix - 1) / radix * radix;
    const auto up = std::max(1u, static_cast<unsigned>(radix / cluster.fabric.oversubscription));
    const sg4::FatTreeParams params = one_level ? sg4::FatTreeParams(1, {leaves}, {1}, {1})
                                                : sg4::FatTreeParams(2, {radix, leaves / radix}, {1, up}, {1, 1});
    const double hops = one_level ? 2 : 4;

    auto* root = sg4::create_star_zone("cluster");
    const LinkPool links(root, scenario);
    auto netpoint = [&](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id) -> std::pair<NetPoint*, NetPoint*> {
        if (id < used_leaves) return build_leaf(zone, static_cast<int>(id), scenario, links, platform);
        return {zone->create_router("unused-leaf-" + std::to_string(id)), nullptr};
    };
    sg4::create_fatTree_zone("fabric", root, params, sg4::ClusterCallbacks(netpoint), cluster.nic.effective_bytes_per_second(),
                             cluster.nic.latency_s / hops, sg4::Link::SharingPolicy::SPLITDUPLEX);
    root->seal();
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
    platform.gpu_hosts.reserve(static_cast<size_t>(scenario.cluster.gpus()));
    if (scenario.cluster.fabric.topology == Topology::star)
        build_star(scenario, platform);
    else
        build_fat_tree(scenario, platform);
    place_colocated_servers(scenario, platform);
    return platform;
}

}  // namespace dtsim::sim
