// Rail-optimized fabric: NIC k of every node on rail switch k, the rails joined by a spine.
#include <simgrid/s4u/NetZone.hpp>

#include <string>
#include <vector>

#include "fabrics.hpp"
#include "platform_leaves.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;
using Direction = sg4::LinkInRoute::Direction;

namespace {

// Each rail is a star whose leaves are NIC zones and the rail's port to the spine: a router in a zone of
// its own, since a star must connect only zones.
sg4::NetZone* create_rail(sg4::NetZone* spine, int rail, NetPoint*& port) {
    auto* zone = sg4::create_star_zone("rail-" + std::to_string(rail));
    zone->set_parent(spine);
    auto* port_zone = sg4::create_full_zone("spine-port-" + std::to_string(rail));
    port_zone->set_parent(zone);
    port = port_zone->create_router("spine-router-" + std::to_string(rail));
    port_zone->seal();
    zone->add_route(port_zone->get_netpoint(), nullptr, port, nullptr, {}, true);
    return zone;
}

}  // namespace

// Zones: the spine (a star of rails) > rail k (a star of NIC zones: node n's GPUs that use NIC k, each
// reached over that NIC's link) > NIC zone. Traffic between two NIC zones of one node stays inside the node
// on the GPUs' intra-node links: bypass routes at the spine send it there. Dedicated servers have one NIC
// each, on the rails in turn. Each rail switch reaches the spine over one up-link carrying its NICs'
// bandwidth divided by the oversubscription, with a NIC link's latency: a route across rails, the only
// kind to load the spine, crosses four such cables.
void build_rail_optimized(const Scenario& scenario, const CostModel& costs, Platform& platform) {
    const auto& cluster = scenario.cluster;
    const int rails = cluster.nics_per_node;
    const int leaves = fabric_leaves(scenario);
    auto rail_of_server = [&](int leaf) { return (leaf - cluster.nodes) % rails; };
    auto* spine = sg4::create_star_zone("cluster");
    const LinkPool links(spine, scenario, costs);
    std::vector<double> nics_on_rail(static_cast<size_t>(rails), cluster.nodes);
    for (int leaf = cluster.nodes; leaf < leaves; ++leaf) ++nics_on_rail[static_cast<size_t>(rail_of_server(leaf))];
    std::vector<sg4::Link*> uplinks;
    for (const double nics : nics_on_rail)
        uplinks.push_back(duplex_link(spine, "rail-uplink-" + std::to_string(uplinks.size()),
                                      nics * costs.nic().effective_bytes_per_second() / cluster.fabric.oversubscription,
                                      nic_link_latency_s(cluster, costs.nic())));

    const LeafBuilder builder(scenario, links, platform);
    std::vector<std::vector<LeafZone>> nic_zones(static_cast<size_t>(cluster.nodes));
    for (int k = 0; k < rails; ++k) {
        NetPoint* port = nullptr;
        auto* rail = create_rail(spine, k, port);
        for (int leaf = 0; leaf < leaves; ++leaf) {
            const bool gpu_node = leaf < cluster.nodes;
            if (!gpu_node && rail_of_server(leaf) != k) continue;
            const int nic = gpu_node ? k : 0;
            const auto zone = builder.nic_zone(rail, leaf, nic);
            rail->add_route(zone.zone, nullptr, zone.gateway, nullptr, {{links.nic(leaf, nic), Direction::UP}}, true);
            if (gpu_node) nic_zones[static_cast<size_t>(leaf)].push_back(zone);
        }
        rail->seal();
        const sg4::LinkInRoute uplink(uplinks[static_cast<size_t>(k)], Direction::UP);
        spine->add_route(rail->get_netpoint(), nullptr, port, nullptr, {uplink}, true);
    }
    for (int node = 0; node < cluster.nodes; ++node)
        for (const auto& from : nic_zones[static_cast<size_t>(node)])
            for (const auto& to : nic_zones[static_cast<size_t>(node)])
                if (from.zone != to.zone)
                    spine->add_bypass_route(from.zone, to.zone, from.nvswitch, to.nvswitch,
                                            {sg4::LinkInRoute(links.local(node))});
    seal_root_zone(scenario, costs, platform, spine);
}

}  // namespace dtsim::sim
