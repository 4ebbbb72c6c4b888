#pragma once
// Collective algorithms run by a rank's communication actor, built from SimGrid point-to-point
// communications so that contention with other traffic is simulated, not assumed.
//
// Fidelity `step` sends every message of the algorithm. Fidelity `flow` sends, per phase, one aggregate
// flow per rank carrying the phase's bytes, and waits the remaining per-step latencies explicitly, so
// that a phase of s steps of c bytes takes s·L + s·c/B like its step form when links are not shared.
#include <vector>

#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

/// A ring over the ranks first, first + stride, ...; `position` is the caller's index in it.
struct Ring {
    int first = 0;
    int stride = 1;
    int count = 1;
    int position = 0;
    int rank_at(int index) const { return first + ((index % count + count) % count) * stride; }
    int me() const { return rank_at(position); }
    int next() const { return rank_at(position + 1); }
    int previous() const { return rank_at(position - 1); }
};

/// `steps` ring steps, each sending `chunk_bytes` to the next rank and receiving from the previous one
/// (a reduce-scatter or an all-gather when steps = size - 1).
void ring_pass(SimulationContext& ctx, int actor_slot, const Ring& ring, double chunk_bytes, int steps);

/// Ring all-reduce of `bytes`: reduce-scatter then all-gather, 2(n-1) steps of bytes/n.
void ring_allreduce(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes);

/// Hierarchical all-reduce for multi-GPU nodes: intra-node reduce-scatter, inter-node ring all-reduce
/// of each GPU's shard among the GPUs with the same local index, intra-node all-gather.
void hierarchical_allreduce(SimulationContext& ctx, int actor_slot, int rank, double bytes);

/// Broadcast of `bytes` from the group's first rank down a binomial tree (Open MPI's bmtree: position p
/// receives from p minus its lowest set bit, then sends to p + 1, p + 2, p + 4 ... below that bit, at once).
void binomial_broadcast(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes);

/// All-to-all where each rank sends `bytes` in all, bytes/n to each peer, in n-1 pairwise exchange steps
/// (step s: send to position + s, receive from position - s).
void pairwise_alltoall(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes);


}  // namespace dtsim::sim
