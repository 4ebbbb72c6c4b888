#pragma once
// Faults played during a simulation (training.stragglers.link_degradation and .node_failure): controller
// actors that change a link's bandwidth at simulated times, and one that fails a node. A failure kills
// every training actor of the current epoch at once (a synchronous job stops as a whole) and spawns the
// next epoch's: all workers again from the last checkpoint, or the survivors from the interrupted
// iteration. The work since the recovery point stays on the timeline as "lost" spans.
#include <functional>

#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

/// Starts the controllers. `spawn_training` spawns the current cohort's actors (after a failure too).
void spawn_fault_controllers(SimulationContext& ctx, std::function<void()> spawn_training);

/// Where an epoch's worker starts: waits out the restart after a failure ("restart" on the wait lane of
/// ranks [first_rank, first_rank + ranks)).
void await_restart(SimulationContext& ctx, int first_rank, int ranks);

/// Ranks [first_rank, first_rank + ranks) have finished `iteration` now: records it, then writes a
/// checkpoint when one is due ("checkpoint" on the compute lane).
void iteration_finished(SimulationContext& ctx, int first_rank, int ranks, int iteration);

/// Runs a training actor's body. When a node failure kills the epoch, a survivor can see its peer's
/// communication fail before it is killed itself; that ends it quietly.
void run_in_epoch(const SimulationContext& ctx, const std::function<void()>& body);

}  // namespace dtsim::sim
