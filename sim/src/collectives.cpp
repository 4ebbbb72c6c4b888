#include "dtsim/sim/collectives.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>

#include <vector>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

int g_token = 0;  // payload of collective messages: only their simulated size matters

// Sends `bytes` to `to` after `overhead_s` of sender-side software time while receiving from `from`.
void send_receive(SimulationContext& ctx, int actor_slot, int me, int to, int from, double bytes, double overhead_s) {
    if (overhead_s > 0) sg4::this_actor::sleep_for(overhead_s);
    sg4::CommPtr send;
    if (!ctx.lose_message_to(to)) send = ctx.link_mailbox(me, to)->put_async(&g_token, static_cast<uint64_t>(bytes));
    auto& state = ctx.state(actor_slot);
    state.waiting_for = "a collective message";
    state.peer = from;
    ctx.link_mailbox(from, me)->get<int>();
    if (send) {
        state.waiting_for = "a collective send to complete";
        state.peer = to;
        send->wait();
    }
}

void exchange(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes, double overhead_s) {
    send_receive(ctx, actor_slot, ring.me(), ring.next(), ring.previous(), bytes, overhead_s);
}

}  // namespace

void ring_pass(SimulationContext& ctx, int actor_slot, const Ring& ring, double chunk_bytes, int steps) {
    if (ring.count < 2 || steps < 1) return;
    const double overhead = ctx.message_overhead_s(ring.me(), ring.next(), chunk_bytes);
    if (ctx.scenario.training.fidelity == Fidelity::step) {
        for (int s = 0; s < steps; ++s) exchange(ctx, actor_slot, ring, chunk_bytes, overhead);
        return;
    }
    // One aggregate flow pays the route latency and the per-message overhead once; the other steps'
    // are waited for here.
    if (steps > 1) sg4::this_actor::sleep_for((steps - 1) * (ctx.route_latency_s(ring.me(), ring.next()) + overhead));
    exchange(ctx, actor_slot, ring, chunk_bytes * steps, overhead);
}

void ring_allreduce(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes) {
    const int n = ring.count;
    // Reduce-scatter then all-gather: both send bytes/n to the next rank n-1 times over the same links,
    // so in flow fidelity they are one phase of 2(n-1) steps.
    if (n > 1) ring_pass(ctx, actor_slot, ring, bytes / n, 2 * (n - 1));
}

void hierarchical_allreduce(SimulationContext& ctx, int actor_slot, int rank, double bytes) {
    const int per_node = ctx.scenario.cluster.gpus_per_node;
    const int nodes = ctx.scenario.cluster.nodes;
    const int node = rank / per_node;
    const int local = rank % per_node;

    const Ring intra{node * per_node, 1, per_node, local};
    const Ring inter{local, per_node, nodes, node};

    ring_pass(ctx, actor_slot, intra, bytes / per_node, per_node - 1);
    ring_allreduce(ctx, actor_slot, inter, bytes / per_node);
    ring_pass(ctx, actor_slot, intra, bytes / per_node, per_node - 1);
}


void binomial_broadcast(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    const int p = group.position;
    auto& state = ctx.state(actor_slot);
    if (p != 0) {
        const int parent = group.rank_at(p - (p & -p));  // clear the lowest set bit
        state.waiting_for = "a broadcast message";
        state.peer = parent;
        ctx.link_mailbox(parent, group.me())->get<int>();
    }
    std::vector<sg4::CommPtr> sends;
    for (int mask = 1; (p & mask) == 0 && p + mask < group.count; mask <<= 1) {
        const int child = group.rank_at(p + mask);
        if (const double overhead = ctx.message_overhead_s(group.me(), child, bytes); overhead > 0)
            sg4::this_actor::sleep_for(overhead);
        if (!ctx.lose_message_to(child)) sends.push_back(ctx.link_mailbox(group.me(), child)->put_async(&g_token, static_cast<uint64_t>(bytes)));
    }
    state.waiting_for = "broadcast sends to complete";
    state.peer = -1;
    sg4::Comm::wait_all(sends);
}

void pairwise_alltoall(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    const double chunk = bytes / group.count;
    for (int step = 1; step < group.count; ++step) {
        const int to = group.rank_at(group.position + step);
        send_receive(ctx, actor_slot, group.me(), to, group.rank_at(group.position - step), chunk,
                     ctx.message_overhead_s(group.me(), to, chunk));
    }
}

}  // namespace dtsim::sim
