#include "dtsim/sim/collectives.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>

#include <algorithm>
#include <array>
#include <vector>

#include "dtsim/sim/calibrated_collectives.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

int g_token = 0;  // payload of collective messages: only their simulated size matters
int* g_received = nullptr;  // where asynchronous receives put that payload

void note_wait(SimulationContext& ctx, int actor_slot, const char* what, int peer) {
    auto& state = ctx.state(actor_slot);
    state.waiting_for = what;
    state.peer = peer;
}

// Starts a send; none (null) when the scenario's debug option loses the message.
sg4::CommPtr post_send(SimulationContext& ctx, int me, int to, double bytes, int channel = 0) {
    if (ctx.lose_message_to(to)) return nullptr;
    return ctx.link_mailbox(me, to, channel)->put_async(&g_token, static_cast<uint64_t>(bytes));
}

// Starts a send after the message's sender-side software overhead.
sg4::CommPtr start_send(SimulationContext& ctx, int me, int to, double bytes, int channel = 0) {
    const auto cost = ctx.message_cost(me, to, bytes);
    if (cost.overhead_s > 0) sg4::this_actor::sleep_for(cost.overhead_s);
    return post_send(ctx, me, to, cost.wire_bytes, channel);
}

sg4::CommPtr start_receive(SimulationContext& ctx, int from, int me, int channel = 0) {
    return ctx.link_mailbox(from, me, channel)->get_async<int>(&g_received);
}

void keep(std::vector<sg4::CommPtr>& comms, sg4::CommPtr comm) {
    if (comm) comms.push_back(std::move(comm));
}

void wait_all(SimulationContext& ctx, int actor_slot, const std::vector<sg4::CommPtr>& comms, const char* what) {
    note_wait(ctx, actor_slot, what, -1);
    sg4::Comm::wait_all(comms);
}

void send(SimulationContext& ctx, int actor_slot, int me, int to, double bytes) {
    if (auto comm = start_send(ctx, me, to, bytes)) {
        note_wait(ctx, actor_slot, "a collective send to complete", to);
        comm->wait();
    }
}

void receive(SimulationContext& ctx, int actor_slot, int from, int me) {
    note_wait(ctx, actor_slot, "a collective message", from);
    ctx.link_mailbox(from, me)->get<int>();
}

// Sends a message to `to` while receiving from `from`: `extra_s` and the message's own overhead first.
void send_receive(SimulationContext& ctx, int actor_slot, int me, int to, int from, const MessageCost& cost, double extra_s = 0) {
    if (const double wait = cost.overhead_s + extra_s; wait > 0) sg4::this_actor::sleep_for(wait);
    auto sent = post_send(ctx, me, to, cost.wire_bytes);
    receive(ctx, actor_slot, from, me);
    if (sent) {
        note_wait(ctx, actor_slot, "a collective send to complete", to);
        sent->wait();
    }
}

void exchange(SimulationContext& ctx, int actor_slot, const Ring& ring, const MessageCost& cost, double extra_s) {
    send_receive(ctx, actor_slot, ring.me(), ring.next(), ring.previous(), cost, extra_s);
}

// One rank's part in both trees of a double binary tree all-reduce. Its communications in the two
// trees are served in the order they complete, so that neither tree waits for the other.
class DoubleTreeRank {
public:
    DoubleTreeRank(SimulationContext& ctx, int actor_slot, const Ring& group, double half_bytes)
        : ctx_(ctx), slot_(actor_slot), group_(group), half_bytes_(half_bytes) {
        for (int t = 0; t < 2; ++t) trees_[t] = double_binary_tree(group.count, group.position, t);
    }

    void run() {
        for (int t = 0; t < 2; ++t) {
            for (int child : trees_[t].children)
                expect(t, Step::from_child, start_receive(ctx_, rank(child), group_.me(), t));
            if (trees_[t].children.empty()) reduced(t);
        }
        std::array<size_t, 2> children_heard {0, 0};
        while (!comms_.empty()) {
            note_wait(ctx_, slot_, "a tree all-reduce message", -1);
            const auto index = static_cast<size_t>(sg4::Comm::wait_any(comms_));
            const auto [tree, step] = steps_[index];
            comms_.erase(comms_.begin() + static_cast<std::ptrdiff_t>(index));
            steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(index));
            if (step == Step::from_child && ++children_heard[tree] == trees_[tree].children.size()) reduced(tree);
            if (step == Step::from_parent) broadcast(tree);
        }
    }

private:
    enum class Step { from_child, to_parent, from_parent, to_child };

    int rank(int position) const { return group_.rank_at(position); }

    void expect(int tree, Step step, sg4::CommPtr comm) {
        if (!comm) return;
        comms_.push_back(std::move(comm));
        steps_.emplace_back(tree, step);
    }

    // Every child's half is in: the sum goes up, or, at the root, straight back down.
    void reduced(int tree) {
        const int parent = trees_[tree].parent;
        if (parent < 0) {
            broadcast(tree);
            return;
        }
        expect(tree, Step::to_parent, start_send(ctx_, group_.me(), rank(parent), half_bytes_, tree));
        expect(tree, Step::from_parent, start_receive(ctx_, rank(parent), group_.me(), tree));
    }

    void broadcast(int tree) {
        for (int child : trees_[tree].children)
            expect(tree, Step::to_child, start_send(ctx_, group_.me(), rank(child), half_bytes_, tree));
    }

    SimulationContext& ctx_;
    const int slot_;
    const Ring group_;
    const double half_bytes_;
    std::array<TreeLinks, 2> trees_;
    std::vector<sg4::CommPtr> comms_;
    std::vector<std::pair<int, Step>> steps_;  // what each of comms_ is
};

// Every rank sends `share` bytes to every other at once and receives as much from each: every pair
// exchanges both ways, and the rank's whole exchange pays the calibrated pair-exchange extra once.
void exchange_with_all(SimulationContext& ctx, int actor_slot, const Ring& group, double share) {
    double extra_s = 0;  // the same for every peer on another node: the first one found decides
    for (int step = 1; step < group.count && extra_s == 0; ++step)
        extra_s = pair_exchange_extra_s(ctx, group.me(), group.rank_at(group.position + step), share * (group.count - 1));
    if (extra_s > 0) sg4::this_actor::sleep_for(extra_s);
    std::vector<sg4::CommPtr> comms;
    for (int step = 1; step < group.count; ++step)
        comms.push_back(start_receive(ctx, group.rank_at(group.position - step), group.me()));
    for (int step = 1; step < group.count; ++step)
        keep(comms, start_send(ctx, group.me(), group.rank_at(group.position + step), share));
    wait_all(ctx, actor_slot, comms, "direct all-reduce messages");
}

}  // namespace

void ring_pass(SimulationContext& ctx, int actor_slot, const Ring& ring, double chunk_bytes, int steps, double extra_step_s) {
    if (ring.count < 2 || steps < 1) return;
    // The other steps follow the first back to back.
    const auto next = ctx.message_cost(ring.me(), ring.next(), chunk_bytes, false, ring.count);
    const auto first = ctx.passes_start_idle ? ctx.message_cost(ring.me(), ring.next(), chunk_bytes, true, ring.count) : next;
    if (ctx.scenario.training.fidelity == Fidelity::step) {
        for (int s = 0; s < steps; ++s) exchange(ctx, actor_slot, ring, s == 0 ? first : next, extra_step_s);
        return;
    }
    // One aggregate flow pays the route latency and the first step's overhead once; the other steps'
    // are waited for here.
    if (steps > 1) sg4::this_actor::sleep_for((steps - 1) * (ctx.route_latency_s(ring.me(), ring.next()) + next.overhead_s + extra_step_s));
    exchange(ctx, actor_slot, ring, {first.overhead_s, first.wire_bytes + (steps - 1) * next.wire_bytes}, extra_step_s);
}

void ring_reduce_scatter(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes) {
    ring_pass(ctx, actor_slot, ring, bytes / ring.count, ring.count - 1);
}

void ring_allgather(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes) {
    // Reductions take no simulated time: an all-gather sends the reduce-scatter's messages.
    ring_reduce_scatter(ctx, actor_slot, ring, bytes);
}

void ring_allreduce(SimulationContext& ctx, int actor_slot, const Ring& ring, double bytes, double extra_step_s) {
    const int n = ring.count;
    // Reduce-scatter then all-gather: both send bytes/n to the next rank n-1 times over the same links,
    // so in flow fidelity they are one phase of 2(n-1) steps.
    if (n > 1) ring_pass(ctx, actor_slot, ring, bytes / n, 2 * (n - 1), extra_step_s);
}

void hierarchical_allreduce(SimulationContext& ctx, int actor_slot, int rank, double bytes) {
    const int per_node = ctx.scenario.cluster.gpus_per_node;
    const int nodes = ctx.scenario.cluster.nodes;
    const int node = ctx.scenario.cluster.node_of(rank);
    const int local = rank % per_node;

    const Ring intra{node * per_node, 1, per_node, local};
    const Ring inter{local, per_node, nodes, node};

    ring_reduce_scatter(ctx, actor_slot, intra, bytes);
    ring_allreduce(ctx, actor_slot, inter, bytes / per_node);
    ring_allgather(ctx, actor_slot, intra, bytes);
}

void tree_allreduce(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    if (group.count > 1) DoubleTreeRank(ctx, actor_slot, group, bytes / 2).run();
}

void halving_doubling_allreduce(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    const int n = group.count;
    const int p = group.position;
    int pof2 = 1;
    while (pof2 * 2 <= n) pof2 *= 2;
    const int extra = n - pof2;
    if (p < 2 * extra && p % 2 == 0) {  // folded away: hand over the vector, get the result back
        send(ctx, actor_slot, group.me(), group.rank_at(p + 1), bytes);
        receive(ctx, actor_slot, group.rank_at(p + 1), group.me());
        return;
    }
    const bool folds_in = p < 2 * extra;
    if (folds_in) receive(ctx, actor_slot, group.rank_at(p - 1), group.me());
    // Positions among the power-of-two ranks that remain.
    const int me = folds_in ? p / 2 : p - extra;
    auto swap_with = [&](int mask, double chunk_bytes) {
        const int other = me ^ mask;
        const int partner = group.rank_at(other < extra ? 2 * other + 1 : other + extra);
        send_receive(ctx, actor_slot, group.me(), partner, partner, ctx.message_cost(group.me(), partner, chunk_bytes),
                     pair_exchange_extra_s(ctx, group.me(), partner, chunk_bytes));
    };
    for (int mask = 1; mask < pof2; mask <<= 1)
        swap_with(mask, bytes / (2 * mask));  // keep half of what is left
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1)
        swap_with(mask, bytes / (2 * mask));  // and double it back
    if (folds_in) send(ctx, actor_slot, group.me(), group.rank_at(p - 1), bytes);
}

void direct_allreduce(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    if (group.count < 2) return;
    // Reduce-scatter then all-gather: the same exchange of one share with every other rank, twice.
    for (int phase = 0; phase < 2; ++phase) exchange_with_all(ctx, actor_slot, group, bytes / group.count);
}

void binomial_broadcast(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    const int p = group.position;
    if (p != 0) receive(ctx, actor_slot, group.rank_at(p - (p & -p)), group.me());  // clear the lowest set bit
    std::vector<sg4::CommPtr> sends;
    for (int mask = 1; (p & mask) == 0 && p + mask < group.count; mask <<= 1)
        keep(sends, start_send(ctx, group.me(), group.rank_at(p + mask), bytes));
    wait_all(ctx, actor_slot, sends, "broadcast sends to complete");
}

void linear_alltoall(SimulationContext& ctx, int actor_slot, const Ring& group, double bytes) {
    if (group.count > 1) exchange_with_all(ctx, actor_slot, group, bytes / group.count);
}

}  // namespace dtsim::sim
