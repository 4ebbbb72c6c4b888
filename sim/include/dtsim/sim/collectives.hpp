#pragma once
// Collective algorithms run by a rank's communication actor, built from SimGrid point-to-point
// communications so that contention with other traffic is simulated, not assumed.
//
// Fidelity `step` sends every message of the algorithm. Fidelity `flow` sends, per phase, one aggregate
// flow per rank carrying the phase's bytes, and waits the remaining per-step latencies explicitly, so
// that a phase of s steps of c bytes takes s·L + s·c/B like its step form when links are not shared.
// Only ring passes have a flow form: the tree, halving-doubling and direct algorithms change partners
// from step to step, so they send every message in both fidelities.
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Comm.hpp>

#include <utility>
#include <vector>

#include "dtsim/collective_trees.hpp"
#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

/// The ranks a collective runs over, in the order its algorithm walks them (a ring's, a tree's positions):
/// first, first + stride, ..., or `members` when given (the workers left after a failure, those in time for
/// a step with backup workers); `position` is the caller's index in it.
struct RankGroup {
    int first = 0;
    int stride = 1;
    int count = 1;
    int position = 0;
    const std::vector<int>* members = nullptr;
    int rank_at(int index) const {
        const int wrapped = (index % count + count) % count;
        return members ? (*members)[static_cast<size_t>(wrapped)] : first + wrapped * stride;
    }
    int me() const { return rank_at(position); }
    int next() const { return rank_at(position + 1); }
    int previous() const { return rank_at(position - 1); }
};

/// Whether an all-reduce algorithm runs ring passes, the only collectives with a `flow` form.
bool runs_ring_passes(AllReduceAlgorithm algorithm);

/// Runs `collective` with `barrier`, shared by its members in flow fidelity (null in step fidelity, where
/// every message is sent and the members keep one another in step). A ring phase sent as one flow per rank
/// lets a rank start as soon as its two neighbours have, and finish as soon as they are done; in the
/// algorithm every rank's result needs every rank's data, and the ring goes at its slowest link's pace.
/// So the members start together, when the last one arrives, and after ring passes (`ring_passes`) they
/// finish together, when the last one is done, as the steps would have them within one step.
template <class Collective>
void run_together(const Actor& actor, const simgrid::s4u::BarrierPtr& barrier, bool ring_passes, Collective&& collective) {
    if (barrier) barrier->wait();
    std::forward<Collective>(collective)();
    if (!barrier || !ring_passes) return;
    actor.waits_for("every member to finish the collective");
    barrier->wait();
}

/// A point-to-point message of `bytes` from rank `from` to `to` (pipeline sends), sent after its
/// sender-side overhead and not waited for: only its receiver waits for it (none where the scenario's debug
/// option loses it). `channel` keeps streams between the same two ranks apart.
void send_detached_message(const Actor& actor, int from, int to, double bytes, int channel);
/// The receive of the next message from `from` on `channel`, started now.
simgrid::s4u::CommPtr receive_message(const Actor& actor, int from, int to, int channel);

/// `steps` ring steps, each sending `chunk_bytes` to the next rank and receiving from the previous one
/// (a reduce-scatter or an all-gather when steps = size - 1). Each step first waits `extra_step_s`
/// (calibrated_collectives.hpp).
void ring_pass(const Actor& actor, const RankGroup& ring, double chunk_bytes, int steps, double extra_step_s = 0);

/// Ring reduce-scatter of `bytes`: n-1 steps of bytes/n, after which each rank holds its reduced share.
void ring_reduce_scatter(const Actor& actor, const RankGroup& ring, double bytes);

/// Ring all-gather of `bytes` in all (bytes/n from each rank): n-1 steps of bytes/n.
void ring_allgather(const Actor& actor, const RankGroup& ring, double bytes);

/// Ring all-reduce of `bytes`: reduce-scatter then all-gather, 2(n-1) steps of bytes/n.
void ring_allreduce(const Actor& actor, const RankGroup& ring, double bytes, double extra_step_s = 0);

/// Double binary tree all-reduce of `bytes` (NCCL's tree algorithm without its chunk pipelining): half
/// of the data goes through each tree, both at once. In a tree a rank receives its children's halves at
/// once, sends the sum to its parent, receives the result from its parent and sends it to its children
/// at once; each message is a whole half. Both fidelities send every message (at most six per rank).
void tree_allreduce(const Actor& actor, const RankGroup& group, double bytes);

/// Rabenseifner's all-reduce: recursive-halving reduce-scatter (exchange half of the data still held
/// with the partner at distance 1, 2, 4 ...), then recursive-doubling all-gather (the same partners in
/// reverse). When n is not a power of two, MPICH's fold: of the first 2r positions (r = n minus the
/// largest power of two below it) each even one hands its whole vector to the next and gets the result
/// back at the end. Both fidelities send every message (2 log2 n per rank).
void halving_doubling_allreduce(const Actor& actor, const RankGroup& group, double bytes);

/// Direct all-reduce: every rank sends bytes/n to every other at once (a reduce-scatter: each reduces
/// the share it owns), then its reduced share to every other at once (an all-gather). Both fidelities
/// send every message: n(n-1) per phase, for groups of up to a few hundred ranks. Each receiving port
/// takes its n - 1 senders at what the profile's incast says it keeps (port_incast).
void direct_allreduce(const Actor& actor, const RankGroup& group, double bytes);

/// Hierarchical all-reduce for multi-GPU nodes: intra-node reduce-scatter, inter-node ring all-reduce
/// of each GPU's shard among the GPUs with the same local index, intra-node all-gather.
void hierarchical_allreduce(const Actor& actor, int rank, double bytes);

/// Broadcast of `bytes` from the group's first rank down a binomial tree (Open MPI's bmtree: position p
/// receives from p minus its lowest set bit, then sends to p + 1, p + 2, p + 4 ... below that bit, at once).
void binomial_broadcast(const Actor& actor, const RankGroup& group, double bytes);

/// All-to-all where each rank sends `bytes` in all, bytes/n to each peer, every send and receive at once
/// (Open MPI's basic linear algorithm, which the calibration pins; NCCL's grouped sends).
void linear_alltoall(const Actor& actor, const RankGroup& group, double bytes);

}  // namespace dtsim::sim
