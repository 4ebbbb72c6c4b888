#pragma once
// An analytical iteration time for an LLM layout, without simulation: what `dtsim plan` ranks and prunes
// its configurations by before simulating the best (docs/plan.md, "Estimate"). The kernels' rooflines from
// the cost model, communication volumes over each group's link at its achieved rate, the pipeline's
// bubble, and overlap where the simulation overlaps (data-parallel reductions under backward, ZeRO-3
// gathers under compute). No contention between groups, no fabric oversubscription: the simulation adds
// those.
#include <array>

#include "dtsim/parallelism.hpp"

namespace dtsim {

struct Scenario;
class CostModel;

struct PlanEstimate {
    double compute_s = 0;    // the slowest stage's passes, every microbatch, with recomputation
    double bubble_s = 0;     // pipeline fill and drain: (P − 1)/v of a microbatch's stage time
    std::array<double, kDimensions> exposed_s{};  // per Dimension: communication not hidden by compute
    double optimizer_s = 0;
    double iteration_s() const;
};

/// Whether the groups of rank 0 along `d` (the data group for Dimension::dp) span nodes, and so go over
/// the NICs rather than the GPU links of a node. The scenario must have an LLM layout.
bool group_crosses_nodes(const Scenario& scenario, Dimension d);

/// The scenario must have an LLM layout and `costs` be its cost model.
PlanEstimate estimate_iteration(const Scenario& scenario, const CostModel& costs);

}  // namespace dtsim
