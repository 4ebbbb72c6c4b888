#include "llm_streams.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/calibrated_collectives.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

bool stage_nodes_alike(const Scenario& scenario) {
    const auto& training = scenario.training;
    if (!training.llm || training.fidelity != Fidelity::flow || training.stragglers.any() || !links_alike(scenario)) return false;
    const auto& llm = *training.llm;
    const auto& p = llm.parallelism;
    const auto topology = scenario.cluster.fabric.topology;
    if (p.order != ParallelismSpec{}.order || llm.expert_imbalance > 0 ||
        (topology != Topology::star && topology != Topology::rail_optimized))
        return false;
    const int block = p.tensor * p.context * p.expert;  // ranks per data-parallel coordinate
    const int per_node = scenario.cluster.gpus_per_node;
    return per_node % block == 0 && block * p.data % per_node == 0;
}

FlowBarriers::FlowBarriers(const Scenario& scenario)
    : flow_(scenario.training.fidelity == Fidelity::flow),
      gpus_per_node_(scenario.cluster.gpus_per_node),
      stage_nodes_(stage_nodes_alike(scenario) ? scenario.cluster.nodes / scenario.training.llm->parallelism.pipeline : 0) {}

FlowBarriers::Entry FlowBarriers::barrier(Stream stream, const RankGroup& group, bool ring_passes) {
    if (!flow_ || group.count < 2) return {};
    const int node = group.first / gpus_per_node_;
    // Copies wait for the stage's first node at the end barrier, which only ring passes have.
    const bool copied = stage_nodes_ > 1 && ring_passes && (group.first + group.stride * (group.count - 1)) / gpus_per_node_ == node;
    const int first = copied ? group.first - node % stage_nodes_ * gpus_per_node_ : group.first;
    auto& barrier = barriers_[{static_cast<int>(stream), first, group.stride, group.count, copied}];
    if (!barrier) barrier = sg4::Barrier::create(static_cast<unsigned>(group.count * (copied ? stage_nodes_ : 1)));
    return {barrier, first == group.first};
}

DataGroups data_groups(const SimulationContext& ctx, const ParallelLayout& layout, int rank) {
    const auto& llm = *ctx.scenario.training.llm;
    const auto dense = rank_group(layout.data_group(rank));
    DataGroups groups{dense, rank_group(layout.group(rank, Dimension::dp)), dense, RankGroup{rank, 1, 1, 0}};
    if (llm.hybrid_sharding()) {
        // Shards within a node (its GPUs of this tensor and pipeline coordinate), replicas across nodes.
        const int size = llm.shard_ranks(dense.count, ctx.scenario.cluster.gpus_per_node);
        const int within = dense.position % size;
        groups.shard = RankGroup{dense.rank_at(dense.position - within), dense.stride, size, within};
        groups.replica = RankGroup{dense.rank_at(within), dense.stride * size, dense.count / size, dense.position / size};
    }
    return groups;
}

namespace {

const char* gradient_span_name(GradientOp op) { return op == GradientOp::allreduce ? "dp allreduce" : "dp reduce-scatter"; }

void reduce(const Actor& actor, FlowBarriers& barriers, const DataGroups& groups, const GradientJob& job) {
    const auto& group = job.expert ? groups.expert : groups.dense;
    const bool ring_allreduce = runs_ring_passes(actor.ctx.scenario.training.strategy.algorithm);
    switch (job.op) {
        case GradientOp::allreduce:
            return barriers.run(actor, Stream::gradients, group, ring_allreduce, [&] { scenario_allreduce(actor, group, job.bytes); });
        case GradientOp::reduce_scatter:
            return barriers.run(actor, Stream::gradients, group, true, [&] { calibrated_reduce_scatter(actor, group, job.bytes); });
        case GradientOp::hybrid:  // reduce-scatter within the shard group, all-reduce the shard across replicas
            barriers.run(actor, Stream::gradients, groups.shard, true, [&] { calibrated_reduce_scatter(actor, groups.shard, job.bytes); });
            return barriers.run(actor, Stream::gradients, groups.replica, ring_allreduce,
                                [&] { scenario_allreduce(actor, groups.replica, job.bytes / groups.shard.count); });
    }
}

}  // namespace

void run_gradient_stream(const Actor& actor, RankStreams& streams, FlowBarriers& barriers, const DataGroups& groups) {
    auto& state = actor.ctx.state(actor.slot);
    for (;;) {
        state.waiting_for = "a gradient bucket from backward";
        const auto job = streams.gradients.pop();
        if (job.last) {
            streams.gradients_done->release();
            if (job.iteration + 1 == actor.ctx.scenario.training.iterations) break;
            continue;
        }
        state.iteration = job.iteration;
        state.bucket = job.index;
        const double start = sg4::Engine::get_clock();
        state.waiting_for = "the data-parallel group's gradient collective";
        reduce(actor, barriers, groups, job);
        actor.ctx.record(groups.dense.me(), Lane::comm, gradient_span_name(job.op), job.iteration, job.index, start, job.bytes);
    }
    state.finished = true;
}

void run_gather_stream(const Actor& actor, RankStreams& streams, FlowBarriers& barriers, const DataGroups& groups) {
    auto& state = actor.ctx.state(actor.slot);
    for (;;) {
        state.waiting_for = "the compute stream to need the next layer";
        const auto job = streams.gathers.pop();
        if (job.end) break;
        state.waiting_for = "the compute stream to start the layer before";
        streams.gather_credit->acquire();
        state.iteration = job.iteration;
        const double start = sg4::Engine::get_clock();
        state.waiting_for = "the sharding group's parameter all-gather";
        const auto& group = job.expert ? groups.expert : groups.shard;
        barriers.run(actor, Stream::gather, group, true, [&] { calibrated_allgather(actor, group, job.bytes); });
        actor.ctx.record(groups.dense.me(), Lane::comm, "dp allgather", job.iteration, job.index, start, job.bytes);
        streams.gathered->release();
    }
    state.finished = true;
}

}  // namespace dtsim::sim
