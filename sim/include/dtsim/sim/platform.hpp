#pragma once
// Builds the SimGrid platform of a scenario programmatically: one host per GPU, per-GPU intra-node
// links, one or more NICs per node, a star, fat-tree, rail-optimized, dragonfly or torus fabric, and
// dedicated parameter-server hosts.
#include <simgrid/s4u/Host.hpp>

#include <vector>

#include "dtsim/scenario.hpp"

namespace dtsim::sim {

/// SimGrid hosts need a speed, but nothing executes on them: compute is scheduled analytically
/// (compute_schedule.hpp) because it contends with nothing simulated.
inline constexpr double kHostSpeed = 1e12;

struct Platform {
    std::vector<simgrid::s4u::Host*> gpu_hosts;     // rank order, node-major
    std::vector<simgrid::s4u::Host*> server_hosts;  // parameter servers (dedicated or colocated)
    std::vector<int> server_nodes;                  // the node each server runs on (dedicated: after GPU nodes)
};

/// Sets the network model configuration; must run after the Engine is created and before building.
void configure_network_model(NetworkModel model);

Platform build_platform(const Scenario& scenario);

}  // namespace dtsim::sim
