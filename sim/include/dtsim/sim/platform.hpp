#pragma once
// Builds the SimGrid platform of a scenario programmatically: one host per GPU, per-GPU intra-node
// links, one or more NICs per node, a star, fat-tree, rail-optimized, dragonfly or torus fabric, and
// dedicated parameter-server hosts.
#include <simgrid/s4u/Host.hpp>

#include <vector>

#include "dtsim/cost_model.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim::sim {

/// SimGrid hosts need a speed, but nothing executes on them: compute is scheduled analytically
/// (compute_schedule.hpp) because it contends with nothing simulated.
inline constexpr double kHostSpeed = 1e12;

struct Platform {
    std::vector<simgrid::s4u::Host*> gpu_hosts;     // rank order, node-major
    std::vector<simgrid::s4u::Host*> server_hosts;  // parameter servers (dedicated or colocated)
    std::vector<int> server_nodes;                  // the node each server runs on (dedicated: after GPU nodes)
    /// Whether the parameter servers are simulated as one striped group (stripes_parameter_servers, and
    /// every endpoint equally far from every server); false: every server has flows of its own.
    bool stripes_servers = false;
    /// Striped parameter servers: per endpoint (node × NIC), the host its GPUs reach the whole server group from.
    std::vector<simgrid::s4u::Host*> server_group_ports;
    /// Where ranks time-share cores (the profile's compute.shared_cores): one host per group of ranks, with
    /// that many cores, on which their codec work executes; empty otherwise. Nothing communicates with it.
    std::vector<simgrid::s4u::Host*> cpu_pools;
    int ranks_per_cpu_pool = 0;
    /// The shared cores of `rank`, or null where it has cores of its own.
    simgrid::s4u::Host* cpu_pool_of(int rank) const;
};

/// A core of a CPU pool runs this many flops per second: work there is given in seconds on one core.
inline constexpr double kPoolCoreSpeed = 1e9;

/// Whether the scenario's parameter servers may be simulated as one group (flow fidelity): by-size
/// sharding splits every push and pull into equal shards on all P servers at once, so every server sees
/// the same flows at the same times and its NIC link carries exactly what each other's does. One flow
/// per push (or pull) between an endpoint's NIC and a link P times a server NIC's bandwidth then gives
/// every shard the rate it would get on its own, with P times fewer flows in SimGrid's solver. Exact
/// where nothing but the two NICs can limit those flows and nothing breaks the servers' symmetry: a star
/// or full-bisection fat-tree, dedicated servers, no backup workers, link degradation or node failure.
/// build_platform also checks that every endpoint is equally far (latency) from every server.
bool stripes_parameter_servers(const Scenario& scenario);

/// Sets the network model configuration; must run after the Engine is created and before building.
void configure_network_model(NetworkModel model);

Platform build_platform(const Scenario& scenario, const CostModel& costs);

}  // namespace dtsim::sim
