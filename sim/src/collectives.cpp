#include "dtsim/sim/collectives.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

int g_token = 0;  // payload of collective messages: only their simulated size matters

void exchange(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes) {
    sg4::CommPtr send;
    if (!ctx.lose_message_to(ring.next()))
        send = ctx.link_mailbox(ring.me(), ring.next())->put_async(&g_token, static_cast<uint64_t>(bytes));
    auto& state = ctx.state(actor_slot);
    state.waiting_for = "a collective message";
    state.peer = ring.previous();
    ctx.link_mailbox(ring.previous(), ring.me())->get<int>();
    if (send) {
        state.waiting_for = "a collective send to complete";
        state.peer = ring.next();
        send->wait();
    }
}

}  // namespace

void ring_pass(SimulationContext& ctx, int actor_slot, const Ring& ring, double chunk_bytes, int steps) {
    if (ring.count < 2 || steps < 1) return;
    if (ctx.scenario.training.fidelity == Fidelity::step) {
        for (int s = 0; s < steps; ++s) exchange(ctx, actor_slot, ring, chunk_bytes);
        return;
    }
    // One aggregate flow pays the route latency once; the other steps' latencies are waited for here.
    if (steps > 1) sg4::this_actor::sleep_for((steps - 1) * ctx.route_latency_s(ring.me(), ring.next()));
    exchange(ctx, actor_slot, ring, chunk_bytes * steps);
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

}  // namespace dtsim::sim
