#include "dtsim/sim/calibrated_collectives.hpp"

#include "dtsim/sim/nccl_collectives.hpp"

#include <algorithm>
#include <set>

namespace dtsim::sim {
namespace {

// The replay of one pass alone, as ring_pass times it from `from` to `to`: its first step (from quiet
// links where passes start idle), then the others back to back, each the message's overhead, the route's
// latency and its bytes at the link class's bandwidth.
double replayed_pass_s(SimulationContext& ctx, int from, int to, double chunk, int steps, int ring_members) {
    const double bandwidth = ctx.costs.link_between(from, to).effective_bytes_per_second();
    const double latency = ctx.route_latency_s(from, to);
    auto step_s = [&](const MessageCost& cost) { return cost.overhead_s + latency + cost.wire_bytes / bandwidth; };
    return step_s(ctx.message_cost(from, to, chunk, ctx.passes_start_idle, ring_members)) +
           (steps - 1) * step_s(ctx.message_cost(from, to, chunk, false, ring_members));
}

// The profile's latency-mode fit of `op` over a group of as many ranks and nodes as `group`, if any.
const NetworkFit* calibrated_fit(const SimulationContext& ctx, NetworkOp op, const RankGroup& group) {
    // Calibrations cover a few small groups: most groups (every one of a large what-if) stop here, at no cost.
    if (group.count < 2 || !ctx.costs.calibrates_group_size(op, group.count)) return nullptr;
    std::set<int> nodes;
    for (int i = 0; i < group.count; ++i) nodes.insert(ctx.scenario.cluster.node_of(group.rank_at(i)));
    return ctx.costs.calibrated_collective(op, group.count, static_cast<int>(nodes.size()));
}

}  // namespace

double calibrated_extra_step_s(SimulationContext& ctx, NetworkOp op, const RankGroup& ring, double bytes, int steps) {
    const NetworkFit* fit = steps < 1 || bytes <= 0 ? nullptr : calibrated_fit(ctx, op, ring);
    if (!fit) return 0;
    // The pass lasts as long as the ring's slowest link takes; every rank computes the same extra.
    const double chunk = bytes / ring.count;
    double pass_s = 0;
    for (int i = 0; i < ring.count; ++i)
        pass_s = std::max(pass_s, replayed_pass_s(ctx, ring.rank_at(i), ring.rank_at(i + 1), chunk, steps, ring.count));
    return std::max(0.0, (fit->seconds(bytes) - pass_s) / steps);
}

double pair_exchange_extra_s(const SimulationContext& ctx, int a, int b, double bytes) {
    const auto& cluster = ctx.scenario.cluster;
    return cluster.node_of(a) == cluster.node_of(b) ? 0 : ctx.costs.inter_node_pair_exchange_extra_s(bytes);
}

namespace {

bool runs_nccl(const Actor& actor) { return actor.ctx.scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl; }

}  // namespace

void calibrated_ring_allreduce(const Actor& actor, const RankGroup& ring, double bytes) {
    if (runs_nccl(actor)) return nccl_collective(actor, ring, NetworkOp::allreduce, bytes);
    ring_allreduce(actor, ring, bytes, calibrated_extra_step_s(actor.ctx, NetworkOp::allreduce, ring, bytes, 2 * (ring.count - 1)));
}

void calibrated_reduce_scatter(const Actor& actor, const RankGroup& ring, double bytes) {
    if (runs_nccl(actor)) return nccl_collective(actor, ring, NetworkOp::reducescatter, bytes);
    ring_pass(actor, ring, bytes / ring.count, ring.count - 1,
              calibrated_extra_step_s(actor.ctx, NetworkOp::allreduce, ring, bytes, 2 * (ring.count - 1)));
}

void calibrated_allgather(const Actor& actor, const RankGroup& ring, double bytes) {
    if (runs_nccl(actor)) return nccl_collective(actor, ring, NetworkOp::allgather, bytes);
    ring_pass(actor, ring, bytes / ring.count, ring.count - 1,
              calibrated_extra_step_s(actor.ctx, NetworkOp::allgather, ring, bytes, ring.count - 1));
}

void scenario_allreduce(const Actor& actor, const RankGroup& group, double bytes) {
    switch (actor.ctx.scenario.training.strategy.algorithm) {
        case AllReduceAlgorithm::ring: return calibrated_ring_allreduce(actor, group, bytes);
        case AllReduceAlgorithm::hierarchical: return hierarchical_allreduce(actor, group.me(), bytes);
        case AllReduceAlgorithm::tree: return tree_allreduce(actor, group, bytes);
        case AllReduceAlgorithm::halving_doubling: return halving_doubling_allreduce(actor, group, bytes);
        case AllReduceAlgorithm::direct: return direct_allreduce(actor, group, bytes);
        case AllReduceAlgorithm::nccl: return nccl_collective(actor, group, NetworkOp::allreduce, bytes);
    }
}

void scenario_alltoall(const Actor& actor, const RankGroup& group, double bytes) {
    if (runs_nccl(actor)) return nccl_collective(actor, group, NetworkOp::alltoall, bytes);
    linear_alltoall(actor, group, bytes);
}

}  // namespace dtsim::sim
