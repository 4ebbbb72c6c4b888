#pragma once
// Collectives the profile measured. A ring collective is replayed from the point-to-point fits, which is
// what lets the simulator predict groups and sizes never calibrated. On the calibrated cluster, though,
// a ring of dependent steps is slower than its exchanges timed alone: every step waits for the slowest
// link of the step before, and each step finds the links without the idle-time credit a lone exchange
// gets (see docs/fidelity.md, "Measurements behind the models").
// When the profile timed the same collective over a group of the same ranks and nodes, one at a time
// (latency mode, as training issues its buckets), each step of the replay waits the difference as a
// per-step overhead: alone, the collective then takes the measured time; under contention its flows
// still share the links.

#include "dtsim/sim/collectives.hpp"

namespace dtsim::sim {

/// Per-step time to add to a ring `op` (allreduce or allgather) of `bytes` (the collective's size,
/// as nccl-tests counts it) over `ring` in `steps` steps: the calibrated time minus the replayed one,
/// spread over the steps; 0 without such a calibration, or when the replay is already as slow.
double calibrated_extra_step_s(SimulationContext& ctx, NetworkOp op, const RankGroup& ring, double bytes, int steps);

/// Ring collectives with the calibration's per-step extra where the profile timed one over such a group
/// (with algorithm: nccl, NCCL's collectives instead, nccl_collectives.hpp):
/// an all-reduce; a reduce-scatter, the all-reduce's first half, whose steps are the all-reduce's and take
/// its extra; an all-gather of `bytes` in all, with the all-gather's.
void calibrated_ring_allreduce(const Actor& actor, const RankGroup& ring, double bytes);
void calibrated_reduce_scatter(const Actor& actor, const RankGroup& ring, double bytes);
void calibrated_allgather(const Actor& actor, const RankGroup& ring, double bytes);

/// The scenario's all-reduce algorithm over `group` (the ring with its calibrated per-step extra; the
/// hierarchical one over the whole cluster's nodes).
void scenario_allreduce(const Actor& actor, const RankGroup& group, double bytes);

/// An all-to-all of `bytes` per rank (a share to every member): with algorithm: nccl as NCCL sends it across
/// nodes (PXN: over NVLink to the GPU on the receiver's rail first), else the direct exchange.
void scenario_alltoall(const Actor& actor, const RankGroup& group, double bytes);

/// Time to add to an exchange of `bytes` each way between GPU ranks `a` and `b` on different nodes, both
/// ways at once (halving-doubling's steps, each pair of direct's all-to-all): what the profile's pair
/// exchange took beyond its ring step (PairExchange). 0 within a node or without such a calibration.
/// Rings keep their own calibration (above): their two neighbours differ, except in a ring of two.
double pair_exchange_extra_s(const SimulationContext& ctx, int a, int b, double bytes);

}  // namespace dtsim::sim
