#pragma once
// Faults under `training.stragglers` (next to slow ranks, jitter and pauses): links running at a
// fraction of their bandwidth for a while, and a node that fails at a given time. They are read here and
// played by controller actors in the simulation (sim/faults.hpp).
#include <limits>
#include <vector>

#include "dtsim/name_table.hpp"

namespace dtsim {

class ConfigNode;
struct ClusterSpec;

/// One link at `fraction` of its bandwidth during [start_s, end_s): NIC `nic` of node `node`, or, when
/// `rank` is set, that GPU's intra-node link, or, when `rail_uplink` is set, that rail switch's up-link to
/// the spine of a rail-optimized fabric. Both directions of the link are degraded.
struct LinkDegradationSpec {
    int node = -1;
    int nic = 0;
    int rank = -1;
    int rail_uplink = -1;
    double fraction = 1;
    double start_s = 0;
    double end_s = std::numeric_limits<double>::infinity();
    bool operator==(const LinkDegradationSpec&) const = default;
};

enum class Recovery { restart_from_checkpoint, drop };
inline constexpr auto kRecoveryNames =
    make_name_table(std::pair{Recovery::restart_from_checkpoint, "restart-from-checkpoint"}, std::pair{Recovery::drop, "drop"});

/// A whole node (all its GPUs) fails at `at_s`.
///   restart-from-checkpoint: every worker stops; after `restart_cost_s` the job starts again from the
///     last checkpoint every worker completed. A checkpoint is written every `checkpoint_every_iterations`
///     iterations, or after the first iteration that ends `checkpoint_every_s` after the previous one,
///     and costs each worker `checkpoint_cost_s`.
///   drop: elastic training; the survivors stop, re-form without the failed node's ranks within
///     `restart_cost_s`, and redo the iteration that was interrupted.
struct NodeFailureSpec {
    int node = -1;  // -1: no failure
    double at_s = 0;
    Recovery recovery = Recovery::restart_from_checkpoint;
    int checkpoint_every_iterations = 0;
    double checkpoint_every_s = 0;
    double checkpoint_cost_s = 0;
    double restart_cost_s = 0;
    bool any() const { return node >= 0; }
};

/// `link_degradation: [{node: 3, nic: 0, fraction: 0.5, start: 1s, end: 2s}, {rank: 5, fraction: 0.25},
///                     {rail_uplink: 1, fraction: 0.5}]`
std::vector<LinkDegradationSpec> read_link_degradation(const ConfigNode& list, const ClusterSpec& cluster);

/// `node_failure: {node: 2, at: 10s, recovery: restart-from-checkpoint, checkpoint_interval: 5,
///                 checkpoint_cost: 2s, restart_cost: 30s}` (checkpoint_interval: iterations, or a duration)
NodeFailureSpec read_node_failure(const ConfigNode& node, const ClusterSpec& cluster);

/// Whether a node's NICs are links of their own in the platform (star and torus fabrics, rail-optimized
/// ones, and nodes with several NICs); elsewhere the fabric's first links are the NICs.
bool nic_is_own_link(const ClusterSpec& cluster);

}  // namespace dtsim
