#pragma once
// Collectives as NCCL runs them (algorithm: nccl; docs/collectives.md). NCCL splits a collective over
// channels, each a ring (or a pair of trees) through every rank; a channel's hop between nodes leaves and
// enters through the NIC of the rail the channel is bound to (through an NVLink peer on that rail, PXN,
// where the sending GPU has another NIC), so channels over k NICs use all k. Chunks pipeline through the
// intra- and inter-node hops at once, so in both fidelities each channel sends, per rank, one flow per hop
// carrying all of its bytes, every flow at once: the collective lasts as long as its busiest link takes,
// plus NCCL's modelled per-step latencies (nccl_model.hpp) and one chunk's pipeline fill.
#include "dtsim/sim/collectives.hpp"

namespace dtsim::sim {

/// `op` (allreduce, reducescatter, allgather, or alltoall: NCCL's point-to-point sends, PXN across nodes) of
/// `bytes` as nccl-tests counts them over `group`, run by every member; members start and finish together.
void nccl_collective(const Actor& actor, const RankGroup& group, NetworkOp op, double bytes);

/// What `nccl_collective` takes over links nothing else uses: the latency, the fill, and the bytes at the
/// group's bottleneck (one GPU's intra-node link, or within a node the NICs its ranks reach). For the
/// tensor-parallel collectives flow fidelity prices rather than simulates (llm_actors.cpp).
double nccl_collective_alone_s(const SimulationContext& ctx, const RankGroup& group, NetworkOp op, double bytes);

}  // namespace dtsim::sim
