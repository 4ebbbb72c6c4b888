// Rail-optimized fabric: NIC k of every node on rail switch k, the rails joined by a spine.
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
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
// its own, since a star must connect only zones. The rail is built outside the platform's tree of zones,
// with the spine's models, and joins the spine once every rail is built: SimGrid 3.32 walks the whole tree
// to check each new host's name and to find a zone's hosts when it seals the zone, which made a platform of
// 4096 NIC zones spend most of its building time in those walks. The tree then holds the same zones, in the
// same order, as when each rail joined the spine on creation.
sg4::NetZone* create_rail(const sg4::NetZone* spine, int rail, NetPoint*& port) {
    auto* zone = sg4::create_star_zone("rail-" + std::to_string(rail));
    auto* impl = zone->get_impl();
    const auto* models = spine->get_impl();
    impl->set_network_model(models->get_network_model());
    impl->set_cpu_pm_model(models->get_cpu_pm_model());
    impl->set_cpu_vm_model(models->get_cpu_vm_model());
    impl->set_disk_model(models->get_disk_model());
    impl->set_host_model(models->get_host_model());
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
    std::vector<std::pair<sg4::NetZone*, NetPoint*>> built;  // each rail and its port to the spine
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
        built.emplace_back(rail, port);
    }
    for (size_t k = 0; k < built.size(); ++k) {
        auto [rail, port] = built[k];
        rail->set_parent(spine);
        rail->seal();
        const sg4::LinkInRoute uplink(uplinks[k], Direction::UP);
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
