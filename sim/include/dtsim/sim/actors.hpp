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
/// Whether every node of a pipeline stage does the same thing at the same time, so that what a group inside
/// one node sends on its GPUs' links is a copy of what the same group on any other node of the stage sends
/// on theirs. It takes a symmetry of the whole run: moving every rank one node on within its stage (a rotation
/// of the data-parallel coordinate: the default order, tp·cp·ep ranks dividing a node, stages of whole nodes)
/// maps every group onto a group and every flow onto a like flow, on a fabric that treats all nodes alike
/// (star or rail-optimized), with every rank computing at the same speed (no stragglers, no expert imbalance)
/// and no fault that makes one link unlike the others (links_alike). A
/// node's links inside it carry nothing from another node; the fat pipe its routes share never binds.
bool stage_nodes_alike(const Scenario& scenario);

}  // namespace dtsim::sim
