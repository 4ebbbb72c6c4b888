#pragma once
// Internal to the platform builder: one builder per fabric topology. Each builds the whole platform under
// a root zone of its own and records the hosts in `platform` (docs/scenario.md describes the models).
#include "dtsim/sim/platform.hpp"

namespace dtsim::sim {

void build_star(const Scenario& scenario, const CostModel& costs, Platform& platform);
void build_fat_tree(const Scenario& scenario, const CostModel& costs, Platform& platform);
void build_dragonfly(const Scenario& scenario, const CostModel& costs, Platform& platform);
void build_torus(const Scenario& scenario, const CostModel& costs, Platform& platform);
void build_rail_optimized(const Scenario& scenario, const CostModel& costs, Platform& platform);

/// Every builder ends with this on its root zone: adds the CPU pools (Platform::cpu_pools) as a zone of
/// their own under it, then seals it.
void seal_root_zone(const Scenario& scenario, const CostModel& costs, Platform& platform, simgrid::s4u::NetZone* root);

}  // namespace dtsim::sim
