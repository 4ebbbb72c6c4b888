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

// The replay of one direct phase alone from `from`'s side, as exchange_with_all times it: the pair-exchange
// addition, each send's overhead in turn, the route's latency, and the n - 1 shares sharing the link, at
// what the receiving port keeps under their incast.
double replayed_exchange_with_all_s(SimulationContext& ctx, const Ring& group, int position, double share) {
    const int from = group.rank_at(position), to = group.rank_at(position + 1);
    const int sends = group.count - 1;
    const auto cost = ctx.message_cost(from, to, share);
    const double port_share = from / ctx.scenario.cluster.gpus_per_node == to / ctx.scenario.cluster.gpus_per_node
                                  ? 1
                                  : port_incast(ctx.scenario).efficiency(sends);
    return pair_exchange_extra_s(ctx, from, to, share * sends) + sends * cost.overhead_s + ctx.route_latency_s(from, to) +
           sends * cost.wire_bytes / (ctx.link_between(from, to).effective_bytes_per_second() * port_share);
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

double calibrated_extra_phase_s(SimulationContext& ctx, const Ring& group, double bytes) {
    const NetworkFit* fit = bytes <= 0 ? nullptr : calibrated_fit(ctx, "alltoall", group);
    if (!fit) return 0;
    double phase_s = 0;  // the slowest rank's, as for rings
    for (int i = 0; i < group.count; ++i) phase_s = std::max(phase_s, replayed_exchange_with_all_s(ctx, group, i, bytes / group.count));
    return std::max(0.0, fit->seconds(bytes) - phase_s);
}

double pair_exchange_extra_s(const SimulationContext& ctx, int a, int b, double bytes) {
    const auto& cluster = ctx.scenario.cluster;
    if (!cluster.inter_node_exchange || a / cluster.gpus_per_node == b / cluster.gpus_per_node) return 0;
    return cluster.inter_node_exchange->extra_s(bytes);
}

}  // namespace dtsim::sim
