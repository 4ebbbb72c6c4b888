#pragma once
// Internal to the platform builder: the links every fabric needs, created up front, and the leaves a
// fabric connects (GPU nodes and dedicated parameter-server nodes), each a zone reached through a gateway
// router.
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <string>
#include <utility>
#include <vector>

#include "dtsim/sim/platform.hpp"

namespace dtsim::sim {

/// The bandwidth of paths that are never the bottleneck here (a GPU to its NIC, a host to itself): SimGrid
/// forbids empty routes, so they cross a fat pipe this fast, which adds under 1e-9 s per 100 MB.
inline constexpr double kFatPipeBytesPerSecond = 1e18;

/// A split-duplex link: each direction has the bandwidth.
simgrid::s4u::SplitDuplexLink* duplex_link(simgrid::s4u::NetZone* zone, const std::string& name, double bytes_per_second,
                                           double latency_s);

/// Makes `port` (one direction of a NIC) lose rate to incast as `incast` says: with n flows across it at
/// once it carries capacity x efficiency(n). Flows stand for senders: collectives and workers send one
/// at a time to a peer. A server's replies for consecutive buckets may overlap on a worker's port, which
/// the server's own port, shared by every worker, keeps from being their bottleneck.
void lose_rate_to_incast(simgrid::s4u::Link* port, const IncastCurve& incast);

/// Whether a leaf's NICs are links inside its zone, between its hosts and its gateway. Fat-tree and
/// dragonfly links to a single-NIC node are its NIC; star and torus fabrics, nodes with several NICs, and
/// nothing else, put them inside. Rail-optimized fabrics use the NIC links as their rails' own.
bool nics_inside_leaves(const ClusterSpec& cluster);

/// The latency of a NIC's link. Switched fabrics take the NIC latency as the one-way latency of their
/// longest host-to-host path, spread evenly over its links: on a star that is NIC, switch, NIC, so each
/// NIC has half of it; on a rail-optimized fabric with several rails it is NIC, rail switch, spine, rail
/// switch, NIC, and each of the four cables has a quarter. Elsewhere the fabric's own links carry it.
double nic_link_latency_s(const ClusterSpec& cluster, const LinkModel& nic);

/// The bandwidth of every link of a fat-tree, dragonfly or torus: a node's NICs feed that many parallel
/// planes of the fabric, which carry traffic as one plane of links that many times as fast.
double fabric_bytes_per_second(const ClusterSpec& cluster, const LinkModel& nic);

/// SimGrid checks every new link's name against the whole platform, walking every zone. Creating all
/// links in the root zone before any node zone exists keeps that check cheap: building a 16k-GPU
/// platform goes from tens of seconds to well under one.
class LinkPool {
public:
    LinkPool(simgrid::s4u::NetZone* root, const Scenario& scenario, const CostModel& costs);
    /// A fat pipe of its own per leaf: a route must not cross the same link twice (SimGrid 3.32 then
    /// mis-shares bandwidth among the flows on it).
    simgrid::s4u::Link* local(int leaf) const { return local_[static_cast<size_t>(leaf)]; }
    simgrid::s4u::Link* intra(int node, int gpu) const {
        return intra_[static_cast<size_t>(node * gpus_per_node_ + gpu)];
    }
    /// NIC `nic` of a leaf; none where the fabric's own links are the NICs.
    simgrid::s4u::Link* nic(int leaf, int nic) const {
        return nics_[static_cast<size_t>(leaf)][static_cast<size_t>(nic)];
    }
    /// Striped parameter servers: the servers' NICs as one link, and each endpoint's port to it (a NIC's
    /// bandwidth; its latency is set once routes exist, see build_platform). Null otherwise.
    simgrid::s4u::Link* server_group() const { return server_group_; }
    simgrid::s4u::Link* server_group_port(int node, int nic) const {
        return server_group_ports_[static_cast<size_t>(node * nics_per_node_ + nic)];
    }

private:
    int gpus_per_node_;
    int nics_per_node_;
    std::vector<simgrid::s4u::Link*> local_;
    std::vector<simgrid::s4u::Link*> intra_;
    std::vector<std::vector<simgrid::s4u::Link*>> nics_;
    simgrid::s4u::Link* server_group_ = nullptr;
    std::vector<simgrid::s4u::Link*> server_group_ports_;
};

/// The name of an endpoint's port to the striped server group: a host and the link to it share it.
std::string server_group_port_name(int node, int nic);

using simgrid::kernel::routing::NetPoint;

/// A leaf zone and the routers in it that other zones' routes lead to.
struct LeafZone {
    NetPoint* zone = nullptr;
    NetPoint* gateway = nullptr;   // where the fabric reaches the zone's hosts
    NetPoint* nvswitch = nullptr;  // rail-optimized nodes only: where traffic to the node's other NICs' GPUs leaves
    std::pair<NetPoint*, NetPoint*> cluster_leaf() const { return {zone, gateway}; }
};

/// Builds leaves as zones of hosts (SimGrid 3.32 misroutes star zones that mix hosts and sub-zones, so a
/// fabric only ever connects zones) and records the hosts in the platform in rank order.
class LeafBuilder {
public:
    LeafBuilder(const Scenario& scenario, const LinkPool& links, Platform& platform);
    /// Leaf `leaf` as one zone: a GPU node (leaf < nodes) or a dedicated server node of one host.
    LeafZone leaf_zone(simgrid::s4u::NetZone* parent, int leaf) const;
    /// The hosts of leaf `leaf` that use NIC `nic`, as one zone whose gateway is that NIC's host side (a
    /// server node is its own NIC's zone).
    LeafZone nic_zone(simgrid::s4u::NetZone* parent, int leaf, int nic) const;

private:
    LeafZone build(simgrid::s4u::NetZone* parent, const std::string& name, int leaf, int first, int count,
                   bool nvswitch) const;
    simgrid::s4u::LinkInRoute to_gateway(int leaf, int local) const;
    void add_server_group_ports(simgrid::s4u::NetZone* zone, int leaf, int first, const std::vector<NetPoint*>& hosts) const;

    const Scenario& scenario_;
    const LinkPool& links_;
    Platform& platform_;
};

}  // namespace dtsim::sim
