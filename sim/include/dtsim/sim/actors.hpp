#pragma once
// The simulated processes of a training job. Every worker has a compute actor (forward, then backward
// bucket by bucket) and a communication actor (gradient synchronisation, one bucket at a time, as a
// single communication stream does). Parameter servers have a receiving/aggregating actor and a sender.
#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

void spawn_compute_actors(SimulationContext& ctx);
void spawn_allreduce_actors(SimulationContext& ctx);
void spawn_parameter_server_actors(SimulationContext& ctx);

}  // namespace dtsim::sim
