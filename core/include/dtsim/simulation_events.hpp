#pragma once
// How many point-to-point messages simulating a scenario sends (docs/scenario.md, "Size of a simulation"):
// each is one SimGrid communication, which with the timeline's spans is what the engine's time grows with.
// Counted from the algorithms' closed forms, before a platform is built, so that a large run can say what
// it is in for.
#include "dtsim/scenario.hpp"

namespace dtsim {

class CostModel;

/// Messages one ring pass of `steps` steps over `ranks` members sends in all: every member sends one per
/// step (fidelity step) or one aggregate flow for the pass (fidelity flow).
double ring_pass_messages(int ranks, int steps, Fidelity fidelity);

/// Messages one all-reduce over `ranks` members sends in all: ring 2n(n-1) (n in flow), hierarchical its
/// three ring passes over the cluster's nodes and GPUs, tree 4(n-1), halving-doubling 2p·log2 p plus two per
/// rank folded away (p the largest power of two ≤ n), direct 2n(n-1).
double allreduce_messages(AllReduceAlgorithm algorithm, int ranks, const ClusterSpec& cluster, Fidelity fidelity);

struct SimulationEvents {
    double messages_per_iteration = 0;  // every rank's collectives and transfers of one iteration
    double messages = 0;                // over all iterations
};

/// The messages of the scenario's strategy, with `costs` giving its gradient buckets and (LLM layouts) its
/// layers. Without faults or backup workers it is what the simulation sends, except where its flows are
/// merged further (striped parameter servers); with them, the messages of a failure-free synchronous run.
SimulationEvents estimate_events(const Scenario& scenario, const CostModel& costs);

}  // namespace dtsim
