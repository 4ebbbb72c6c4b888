#include "dtsim/sim/calibrated_collectives.hpp"

#include <algorithm>
#include <set>

namespace dtsim::sim {
namespace {

// The replay of one pass alone, as ring_pass times it from `from` to `to`: its first step (from quiet
// links where passes start idle), then the others back to back, each the message's overhead, the route's
// latency and its bytes at the link class's bandwidth.
double replayed_pass_s(SimulationContext& ctx, int from, int to, double chunk, int steps, int ring_members) {
    const double bandwidth = ctx.link_between(from, to).effective_bytes_per_second();
    const double latency = ctx.route_latency_s(from, to);
    auto step_s = [&](const MessageCost& cost) { return cost.overhead_s + latency + cost.wire_bytes / bandwidth; };
    return step_s(ctx.message_cost(from, to, chunk, ctx.passes_start_idle, ring_members)) +
           (steps - 1) * step_s(ctx.message_cost(from, to, chunk, false, ring_members));
}

// The profile's latency-mode fit of `op` over a group of as many ranks and nodes as `group`, if any.
const NetworkFit* calibrated_fit(const SimulationContext& ctx, std::string_view op, const Ring& group) {
    const auto& cluster = ctx.scenario.cluster;
    // Calibrations cover a few small groups: most groups (every one of a large what-if) stop here, at no cost.
    const bool calibrated_size = std::any_of(cluster.calibrated_collectives.begin(), cluster.calibrated_collectives.end(),
                                             [&](const NetworkFit& fit) { return fit.op == op && fit.ranks == group.count; });
    if (!calibrated_size || group.count < 2) return nullptr;
    std::set<int> nodes;
    for (int i = 0; i < group.count; ++i) nodes.insert(group.rank_at(i) / cluster.gpus_per_node);
    return cluster.calibrated_collective(op, group.count, static_cast<int>(nodes.size()));
}

}  // namespace

double calibrated_extra_step_s(SimulationContext& ctx, std::string_view op, const Ring& ring, double bytes, int steps) {
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
    if (!cluster.inter_node_exchange || a / cluster.gpus_per_node == b / cluster.gpus_per_node) return 0;
    return cluster.inter_node_exchange->extra_s(bytes);
}

}  // namespace dtsim::sim
