#pragma once
// The simulated processes of a training job. Every worker is one actor that computes (see
// compute_schedule.hpp) and synchronises its gradients one bucket at a time, as a single communication
// stream does. A parameter server is one sending actor (striped servers: server 0's alone); a shard's
// aggregation is computed on arrival by the worker actor that pushed it.
#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

void spawn_allreduce_actors(SimulationContext& ctx);
void spawn_parameter_server_actors(SimulationContext& ctx);
/// An LLM layout (scenario.training.llm): see llm_actors.cpp.
void spawn_llm_actors(SimulationContext& ctx);
/// How many ranks of an LLM layout record a timeline: one per tensor group in flow fidelity; 0 for all.
int llm_ranks_with_timeline(const Scenario& scenario);

}  // namespace dtsim::sim
