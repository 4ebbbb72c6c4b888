#include "dtsim/fault_spec.hpp"

#include <cctype>

#include "dtsim/config_node.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {
namespace {

int index_in(const ConfigNode& node, std::string_view key, int count) { return static_cast<int>(node.integer(key, 0, count - 1)); }

LinkDegradationSpec read_one_degradation(const ConfigNode& entry, const ClusterSpec& cluster) {
    entry.require_map_with_keys({"node", "nic", "rank", "rail_uplink", "fraction", "start", "end"});
    LinkDegradationSpec link;
    if (entry.has("rank") + entry.has("node") + entry.has("rail_uplink") != 1)
        entry.fail("node", "give one of node (and nic) for a NIC, rank for a GPU's intra-node link, or rail_uplink");
    if (entry.has("rail_uplink")) {
        if (cluster.fabric.topology != Topology::rail_optimized) entry.fail("rail_uplink", "needs fabric: {topology: rail-optimized}");
        link.rail_uplink = index_in(entry, "rail_uplink", cluster.nics_per_node);
    } else if (entry.has("rank")) {
        if (entry.has("nic")) entry.fail("nic", "applies to a node's NIC, not to a rank's intra-node link");
        if (cluster.gpus_per_node < 2) entry.fail("rank", "needs gpus_per_node above 1: one GPU per node has no intra-node link");
        link.rank = index_in(entry, "rank", cluster.gpus());
    } else {
        link.node = index_in(entry, "node", cluster.nodes);
        if (entry.has("nic")) link.nic = index_in(entry, "nic", cluster.nics_per_node);
        if (!nic_is_own_link(cluster))
            entry.fail("node", "a NIC can be degraded on star, torus and rail-optimized fabrics or with several NICs per "
                               "node; here the fabric's own links are the NICs");
    }
    if (!entry.has("fraction")) entry.fail("fraction", "is missing: the share of the bandwidth left, such as 0.5");
    link.fraction = entry.number("fraction", 1e-6, 1);
    if (entry.has("start")) link.start_s = entry.seconds("start");
    if (entry.has("end")) link.end_s = entry.seconds("end");
    if (!(link.end_s > link.start_s)) entry.fail("end", "must be after start");
    return link;
}

// `checkpoint_interval: 5` counts iterations; `checkpoint_interval: 30s` is a duration.
void read_checkpoint_interval(const ConfigNode& node, NodeFailureSpec& failure) {
    const auto& value = node.yaml()["checkpoint_interval"];
    const bool duration = value.IsScalar() && !value.Scalar().empty() && std::isalpha(static_cast<unsigned char>(value.Scalar().back()));
    if (duration) {
        failure.checkpoint_every_s = node.seconds("checkpoint_interval");
        if (failure.checkpoint_every_s <= 0) node.fail("checkpoint_interval", "must be a positive duration such as 30s");
    } else {
        failure.checkpoint_every_iterations = static_cast<int>(node.integer("checkpoint_interval", 1, 1000000));
    }
}

}  // namespace

bool nic_is_own_link(const ClusterSpec& cluster) {
    switch (cluster.fabric.topology) {
        case Topology::star:
        case Topology::torus:
        case Topology::rail_optimized: return true;
        case Topology::fat_tree:
        case Topology::dragonfly: return cluster.nics_per_node > 1;
    }
    return false;
}

std::vector<LinkDegradationSpec> read_link_degradation(const ConfigNode& list, const ClusterSpec& cluster) {
    std::vector<LinkDegradationSpec> links;
    for (const auto& entry : list.sequence()) links.push_back(read_one_degradation(entry, cluster));
    if (links.empty()) list.fail("", "expected a non-empty list of degraded links");
    return links;
}

NodeFailureSpec read_node_failure(const ConfigNode& node, const ClusterSpec& cluster) {
    node.require_map_with_keys({"node", "at", "recovery", "checkpoint_interval", "checkpoint_cost", "restart_cost"});
    NodeFailureSpec failure;
    if (!node.has("node")) node.fail("node", "is missing: the node that fails, such as node: 1");
    failure.node = index_in(node, "node", cluster.nodes);
    failure.at_s = node.seconds("at");
    failure.recovery = node.choice("recovery", kRecoveryNames);
    if (failure.recovery == Recovery::restart_from_checkpoint) {
        if (!node.has("checkpoint_interval"))
            node.fail("checkpoint_interval", "is missing: restart-from-checkpoint needs an interval, such as 5 (iterations) or 30s");
        read_checkpoint_interval(node, failure);
        if (node.has("checkpoint_cost")) failure.checkpoint_cost_s = node.seconds("checkpoint_cost");
    } else {
        for (const auto* key : {"checkpoint_interval", "checkpoint_cost"})
            if (node.has(key)) node.fail(key, "applies only to recovery: restart-from-checkpoint");
        if (cluster.nodes < 2) node.fail("recovery", "drop needs a node left: the cluster has one node");
    }
    if (node.has("restart_cost")) failure.restart_cost_s = node.seconds("restart_cost");
    return failure;
}

}  // namespace dtsim
