#include "platform_leaves.hpp"

#include <algorithm>
#include <map>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;
using Direction = sg4::LinkInRoute::Direction;

namespace {

std::string leaf_name(const Scenario& scenario, int leaf) {
    const int nodes = scenario.cluster.nodes;
    return leaf < nodes ? "node-" + std::to_string(leaf) : "server-" + std::to_string(leaf - nodes);
}

}  // namespace

double nic_link_latency_s(const ClusterSpec& cluster, const LinkModel& nic) {
    switch (cluster.fabric.topology) {
        case Topology::star: return nic.latency_s / 2;
        case Topology::rail_optimized: return nic.latency_s / (cluster.nics_per_node > 1 ? 4 : 2);
        default: return 0;
    }
}

sg4::SplitDuplexLink* duplex_link(sg4::NetZone* zone, const std::string& name, double bytes_per_second, double latency_s) {
    auto* link = zone->create_split_duplex_link(name, bytes_per_second);
    link->set_latency(latency_s)->seal();
    return link;
}

void lose_rate_to_incast(sg4::Link* port, const IncastCurve& incast) {
    if (incast.empty()) return;
    // The solver asks on every sharing it computes: a table, not the curve, answers it.
    const int tabulated = std::max(2, incast.points.back().first);
    std::vector<double> efficiency(static_cast<size_t>(tabulated) + 1);
    for (int n = 0; n <= tabulated; ++n) efficiency[static_cast<size_t>(n)] = incast.efficiency(n);
    port->set_sharing_policy(sg4::Link::SharingPolicy::NONLINEAR, [efficiency, tabulated](double capacity, int flows) {
        return capacity * efficiency[static_cast<size_t>(std::clamp(flows, 0, tabulated))];
    });
}

bool nics_inside_leaves(const ClusterSpec& cluster) {
    switch (cluster.fabric.topology) {
        case Topology::star:
        case Topology::torus: return true;
        case Topology::fat_tree:
        case Topology::dragonfly: return cluster.nics_per_node > 1;
        case Topology::rail_optimized: return false;
    }
    return false;
}

double fabric_bytes_per_second(const ClusterSpec& cluster, const LinkModel& nic) {
    return cluster.nics_per_node * nic.effective_bytes_per_second();
}

std::string server_group_port_name(int node, int nic) {
    return "server-group-port-" + std::to_string(node) + "-" + std::to_string(nic);
}

LinkPool::LinkPool(sg4::NetZone* root, const Scenario& scenario, const CostModel& costs)
    : gpus_per_node_(scenario.cluster.gpus_per_node), nics_per_node_(scenario.cluster.nics_per_node) {
    const auto& cluster = scenario.cluster;
    const int leaves = fabric_leaves(scenario);
    if (stripes_parameter_servers(scenario)) {
        const double nic = costs.nic().effective_bytes_per_second();
        auto* group = duplex_link(root, "server-group", scenario.training.strategy.servers * nic, 0);
        lose_rate_to_incast(group->get_link_up(), costs.port_incast());  // every endpoint's pushes arrive up it
        server_group_ = group;
        for (int node = 0; node < cluster.nodes; ++node)
            for (int k = 0; k < cluster.nics_per_node; ++k)
                server_group_ports_.push_back(duplex_link(root, server_group_port_name(node, k), nic, 0));
    }
    for (int leaf = 0; leaf < leaves; ++leaf)
        local_.push_back(root->create_link("local-" + std::to_string(leaf), kFatPipeBytesPerSecond)
                             ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                             ->seal());
    const auto& intra = costs.intra_node();
    if (cluster.gpus_per_node > 1)
        for (int n = 0; n < cluster.nodes; ++n)
            for (int g = 0; g < cluster.gpus_per_node; ++g)
                // Each GPU's link carries half the one-way GPU-to-GPU latency: a route crosses two of them.
                intra_.push_back(duplex_link(root, "nvlink-" + std::to_string(n) + "-" + std::to_string(g),
                                             intra.effective_bytes_per_second(), intra.latency_s / 2));
    nics_.resize(static_cast<size_t>(leaves));
    if (!nic_is_own_link(cluster)) return;
    for (int leaf = 0; leaf < leaves; ++leaf) {
        const int count = leaf < cluster.nodes ? cluster.nics_per_node : 1;
        for (int k = 0; k < count; ++k) {
            auto* nic = duplex_link(root, "nic-" + std::to_string(leaf) + "-" + std::to_string(k),
                                    costs.nic().effective_bytes_per_second(), nic_link_latency_s(cluster, costs.nic()));
            lose_rate_to_incast(nic->get_link_down(), costs.port_incast());  // what arrives at the leaf
            nics_[static_cast<size_t>(leaf)].push_back(nic);
        }
    }
}

LeafBuilder::LeafBuilder(const Scenario& scenario, const LinkPool& links, Platform& platform)
    : scenario_(scenario), links_(links), platform_(platform) {}

LeafZone LeafBuilder::leaf_zone(sg4::NetZone* parent, int leaf) const {
    const bool gpu_node = leaf < scenario_.cluster.nodes;
    return build(parent, leaf_name(scenario_, leaf), leaf, 0, gpu_node ? scenario_.cluster.gpus_per_node : 1, false);
}

LeafZone LeafBuilder::nic_zone(sg4::NetZone* parent, int leaf, int nic) const {
    if (leaf >= scenario_.cluster.nodes) return leaf_zone(parent, leaf);
    const int per_nic = scenario_.cluster.gpus_per_node / scenario_.cluster.nics_per_node;
    return build(parent, leaf_name(scenario_, leaf) + "-nic-" + std::to_string(nic), leaf, nic * per_nic, per_nic,
                 scenario_.cluster.nics_per_node > 1);
}

sg4::LinkInRoute LeafBuilder::to_gateway(int leaf, int local) const {
    if (!nics_inside_leaves(scenario_.cluster)) return sg4::LinkInRoute(links_.local(leaf));
    const int nic = leaf < scenario_.cluster.nodes ? scenario_.cluster.nic_of_gpu(local) : 0;
    return {links_.nic(leaf, nic), Direction::UP};
}

// Hosts [first, first + count) of a leaf as one full zone. GPUs reach each other through their own
// intra-node links (NVLink/NVSwitch-like) and the gateway without crossing them (GPUDirect over PCIe is
// not the bottleneck modelled here); the optional NVSwitch router is reached over them.
LeafZone LeafBuilder::build(sg4::NetZone* parent, const std::string& name, int leaf, int first, int count,
                            bool nvswitch) const {
    auto* zone = sg4::create_full_zone(name);
    zone->set_parent(parent);
    const LeafZone made{zone->get_netpoint(), zone->create_router("port-" + name),
                        nvswitch ? zone->create_router("nvswitch-" + name) : nullptr};
    const bool gpu_node = leaf < scenario_.cluster.nodes;
    const int first_rank = gpu_node ? leaf * scenario_.cluster.gpus_per_node + first : 0;
    std::vector<NetPoint*> hosts;
    for (int h = 0; h < count; ++h) {
        const auto host_name = "host-" + leaf_name(scenario_, leaf) + "-" + std::to_string(first + h);
        // Sealed here: a zone built outside the platform's tree (fabric_rail.cpp) does not find its hosts to seal them.
        auto* host = zone->create_host(host_name, kHostSpeed)->seal();
        auto& slot = gpu_node ? platform_.gpu_hosts[static_cast<size_t>(first_rank + h)]
                              : platform_.server_hosts[static_cast<size_t>(leaf - scenario_.cluster.nodes)];
        slot = host;
        hosts.push_back(host->get_netpoint());
    }
    if (gpu_node && links_.server_group()) add_server_group_ports(zone, leaf, first, hosts);
    auto intra = [&](int h, Direction direction) { return sg4::LinkInRoute(links_.intra(leaf, first + h), direction); };
    for (int a = 0; a < count; ++a) {
        auto* from = hosts[static_cast<size_t>(a)];
        zone->add_route(from, from, nullptr, nullptr, {sg4::LinkInRoute(links_.local(leaf))}, false);
        zone->add_route(from, made.gateway, nullptr, nullptr, {to_gateway(leaf, first + a)}, true);
        if (made.nvswitch) zone->add_route(from, made.nvswitch, nullptr, nullptr, {intra(a, Direction::UP)}, true);
        for (int b = 0; b < count; ++b)
            if (a != b)
                zone->add_route(from, hosts[static_cast<size_t>(b)], nullptr, nullptr,
                                {intra(a, Direction::UP), intra(b, Direction::DOWN)}, false);
    }
    zone->seal();
    return made;
}

// A port host per NIC of the leaf's GPUs: a GPU reaches the striped server group through its NIC's port
// link and the group link, as its shards would cross its NIC and every server's.
void LeafBuilder::add_server_group_ports(sg4::NetZone* zone, int leaf, int first, const std::vector<NetPoint*>& hosts) const {
    const auto& cluster = scenario_.cluster;
    std::map<int, NetPoint*> ports;  // by NIC
    for (size_t h = 0; h < hosts.size(); ++h) {
        const int nic = cluster.nic_of_gpu(first + static_cast<int>(h));
        auto& port = ports[nic];
        if (!port) {
            auto* host = zone->create_host(server_group_port_name(leaf, nic), kHostSpeed)->seal();
            platform_.server_group_ports[static_cast<size_t>(leaf * cluster.nics_per_node + nic)] = host;
            port = host->get_netpoint();
        }
        zone->add_route(hosts[h], port, nullptr, nullptr,
                        {{links_.server_group_port(leaf, nic), Direction::UP}, {links_.server_group(), Direction::UP}}, true);
    }
}

}  // namespace dtsim::sim
