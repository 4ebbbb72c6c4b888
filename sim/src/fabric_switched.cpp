// Fabrics whose leaves are whole nodes: star, and SimGrid's fat-tree, dragonfly and torus builders.
#include <simgrid/s4u/NetZone.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "fabrics.hpp"
#include "platform_leaves.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

// A SimGrid cluster zone (fat-tree, dragonfly, torus) made by `create` under a root zone: its leaf
// positions hold the GPU nodes, then the dedicated server nodes, then routers for positions left over.
void build_cluster(const Scenario& scenario, const CostModel& costs, Platform& platform,
                   const std::function<void(sg4::NetZone* root, const sg4::ClusterCallbacks&)>& create) {
    auto* root = sg4::create_star_zone("cluster");
    const LinkPool links(root, scenario, costs);
    const LeafBuilder leaves(scenario, links, platform);
    const auto used = static_cast<unsigned long>(fabric_leaves(scenario));
    auto netpoint = [&](sg4::NetZone* zone, const std::vector<unsigned long>&, unsigned long id) {
        if (id < used) return leaves.leaf_zone(zone, static_cast<int>(id)).cluster_leaf();
        return std::pair<NetPoint*, NetPoint*>{zone->create_router("unused-leaf-" + std::to_string(id)), nullptr};
    };
    create(root, sg4::ClusterCallbacks(netpoint));
    seal_root_zone(scenario, costs, platform, root);
}

}  // namespace

void build_star(const Scenario& scenario, const CostModel& costs, Platform& platform) {
    auto* fabric = sg4::create_star_zone("fabric");
    const LinkPool links(fabric, scenario, costs);
    const LeafBuilder leaves(scenario, links, platform);
    // One non-blocking switch: the NICs inside the leaves are all that a route between two leaves crosses.
    for (int leaf = 0; leaf < fabric_leaves(scenario); ++leaf) {
        const auto zone = leaves.leaf_zone(fabric, leaf);
        fabric->add_route(zone.zone, nullptr, zone.gateway, nullptr, {}, true);
    }
    seal_root_zone(scenario, costs, platform, fabric);
}

// At most `levels` switch levels, as few as the leaves need: `radix` leaves per leaf switch and radix
// children per switch above, except at the top, which takes every sub-tree there is. Leaf switches have
// radix / oversubscription up-links, switches above radix. The NIC latency is spread so that the longest
// host-to-host path (up to the top and down) has exactly that one-way latency.
void build_fat_tree(const Scenario& scenario, const CostModel& costs, Platform& platform) {
    const auto& cluster = scenario.cluster;
    const auto used = static_cast<unsigned long>(fabric_leaves(scenario));
    const auto radix = static_cast<unsigned>(cluster.fabric.radix);
    unsigned levels = 1;
    unsigned long under_top_child = 1;  // leaves under one child of a top switch
    for (; levels < static_cast<unsigned>(cluster.fabric.levels) && under_top_child * radix < used; ++levels)
        under_top_child *= radix;
    const auto top = static_cast<unsigned>((used + under_top_child - 1) / under_top_child);
    std::vector<unsigned> down(levels, radix), up(levels, radix), count(levels, 1);
    down.back() = top;
    up.front() = 1;
    if (levels > 1) up[1] = std::max(1u, static_cast<unsigned>(radix / cluster.fabric.oversubscription));
    const sg4::FatTreeParams params(levels, down, up, count);
    build_cluster(scenario, costs, platform, [&](sg4::NetZone* root, const sg4::ClusterCallbacks& callbacks) {
        sg4::create_fatTree_zone("fabric", root, params, callbacks, fabric_bytes_per_second(cluster, costs.nic()),
                                 costs.nic().latency_s / (2.0 * levels), sg4::Link::SharingPolicy::SPLITDUPLEX);
    });
}

// SimGrid's dragonfly with one chassis per group: a group's routers all-to-all, the groups all-to-all
// (router j of each group holds the global link to group j), minimal routing. Every link has the
// fabric's bandwidth (a global one global_links times it). The longest path, which has the NIC latency,
// goes node, router, router with the global link, router at the far end of it, router, node: 5 links
// between groups, 3 within a group of several routers, 2 on a single router.
void build_dragonfly(const Scenario& scenario, const CostModel& costs, Platform& platform) {
    const auto& cluster = scenario.cluster;
    const auto& shape = cluster.fabric.dragonfly;
    const double longest_path_links = shape.groups > 1 ? 5 : shape.routers_per_group > 1 ? 3 : 2;
    auto count = [](int value) { return static_cast<unsigned>(value); };
    const sg4::DragonflyParams params({count(shape.groups), count(shape.global_links)}, {1, 1},
                                      {count(shape.routers_per_group), 1}, count(shape.nodes_per_router));
    build_cluster(scenario, costs, platform, [&](sg4::NetZone* root, const sg4::ClusterCallbacks& callbacks) {
        sg4::create_dragonfly_zone("fabric", root, params, callbacks, fabric_bytes_per_second(cluster, costs.nic()),
                                   costs.nic().latency_s / longest_path_links, sg4::Link::SharingPolicy::SPLITDUPLEX);
    });
}

// Positions numbered along the first dimension first; dimension-order routing, the shorter way round.
// Every torus link has the fabric's bandwidth and the NIC latency: neighbours are the NIC latency apart.
void build_torus(const Scenario& scenario, const CostModel& costs, Platform& platform) {
    const auto& cluster = scenario.cluster;
    const auto& sizes = cluster.fabric.dimensions;
    const std::vector<unsigned long> dimensions(sizes.begin(), sizes.end());
    build_cluster(scenario, costs, platform, [&](sg4::NetZone* root, const sg4::ClusterCallbacks& callbacks) {
        sg4::create_torus_zone("fabric", root, dimensions, callbacks, fabric_bytes_per_second(cluster, costs.nic()),
                               costs.nic().latency_s, sg4::Link::SharingPolicy::SPLITDUPLEX);
    });
}

}  // namespace dtsim::sim
