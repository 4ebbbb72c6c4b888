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

int g_step_token = 0;  // payload of collective messages: only their simulated size matters
int* g_received = nullptr;  // where asynchronous receives put that payload

// The mailbox of a message stream between two ranks: the actor's communication stream, then `channel`
// within it (the two trees of a double binary tree).
sg4::Mailbox* mailbox(const Actor& actor, int from, int to, int channel) {
    return actor.ctx.link_mailbox(from, to, actor.stream * kChannelsPerStream + channel);
}

// Starts a send; none (null) when the scenario's debug option loses the message.
sg4::CommPtr post_send(const Actor& actor, int me, int to, double bytes, int channel = 0) {
    if (actor.ctx.lose_message_to(to)) return nullptr;
    return mailbox(actor, me, to, channel)->put_async(&g_step_token, static_cast<uint64_t>(bytes));
}

// Starts a send after the message's sender-side software overhead.
sg4::CommPtr start_send(const Actor& actor, int me, int to, double bytes, int channel = 0) {
    const auto cost = actor.ctx.message_cost(me, to, bytes);
    if (cost.overhead_s > 0) sg4::this_actor::sleep_for(cost.overhead_s);
    return post_send(actor, me, to, cost.wire_bytes, channel);
}

sg4::CommPtr start_receive(const Actor& actor, int from, int me, int channel = 0) {
    return mailbox(actor, from, me, channel)->get_async<int>(&g_received);
}

void keep(std::vector<sg4::CommPtr>& comms, sg4::CommPtr comm) {
    if (comm) comms.push_back(std::move(comm));
}

void wait_all(const Actor& actor, const std::vector<sg4::CommPtr>& comms, const char* what) {
    actor.waits_for(what, -1);
    sg4::Comm::wait_all(comms);
}

void send(const Actor& actor, int me, int to, double bytes) {
    if (auto comm = start_send(actor, me, to, bytes)) {
        actor.waits_for("a collective send to complete", to);
        comm->wait();
    }
}

void receive(const Actor& actor, int from, int me) {
    actor.waits_for("a collective message", from);
    mailbox(actor, from, me, 0)->get<int>();
}

// Sends a message to `to` while receiving from `from`: `extra_s` and the message's own overhead first.
void send_receive(const Actor& actor, int me, int to, int from, const MessageCost& cost, double extra_s = 0) {
    if (const double wait = cost.overhead_s + extra_s; wait > 0) sg4::this_actor::sleep_for(wait);
    auto sent = post_send(actor, me, to, cost.wire_bytes);
    receive(actor, from, me);
    if (sent) {
        actor.waits_for("a collective send to complete", to);
        sent->wait();
    }
}

void exchange(const Actor& actor, const RankGroup& ring, const MessageCost& cost, double extra_s) {
    send_receive(actor, ring.me(), ring.next(), ring.previous(), cost, extra_s);
}

// One rank's part in both trees of a double binary tree all-reduce. Its communications in the two
// trees are served in the order they complete, so that neither tree waits for the other.
class DoubleTreeRank {
public:
    DoubleTreeRank(const Actor& actor, const RankGroup& group, double half_bytes)
        : actor_(actor), group_(group), half_bytes_(half_bytes) {
        for (int t = 0; t < 2; ++t) trees_[t] = double_binary_tree(group.count, group.position, t);
    }

    void run() {
        for (int t = 0; t < 2; ++t) {
            for (int child : trees_[t].children)
                expect(t, Step::from_child, start_receive(actor_, rank(child), group_.me(), t));
            if (trees_[t].children.empty()) reduced(t);
        }
        std::array<size_t, 2> children_heard {0, 0};
        while (!comms_.empty()) {
            actor_.waits_for("a tree all-reduce message", -1);
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
        expect(tree, Step::to_parent, start_send(actor_, group_.me(), rank(parent), half_bytes_, tree));
        expect(tree, Step::from_parent, start_receive(actor_, rank(parent), group_.me(), tree));
    }

    void broadcast(int tree) {
        for (int child : trees_[tree].children)
            expect(tree, Step::to_child, start_send(actor_, group_.me(), rank(child), half_bytes_, tree));
    }

    const Actor actor_;
    const RankGroup group_;
    const double half_bytes_;
    std::array<TreeLinks, 2> trees_;
    std::vector<sg4::CommPtr> comms_;
    std::vector<std::pair<int, Step>> steps_;  // what each of comms_ is
};

// Every rank sends `share` bytes to every other at once and receives as much from each: every pair
// exchanges both ways, and the rank's whole exchange pays the calibrated pair-exchange extra once.
void exchange_with_all(const Actor& actor, const RankGroup& group, double share) {
    double extra_s = 0;  // the same for every peer on another node: the first one found decides
    for (int step = 1; step < group.count && extra_s == 0; ++step)
        extra_s = pair_exchange_extra_s(actor.ctx, group.me(), group.rank_at(group.position + step), share * (group.count - 1));
    if (extra_s > 0) sg4::this_actor::sleep_for(extra_s);
    std::vector<sg4::CommPtr> comms;
    for (int step = 1; step < group.count; ++step)
        comms.push_back(start_receive(actor, group.rank_at(group.position - step), group.me()));
    for (int step = 1; step < group.count; ++step)
        keep(comms, start_send(actor, group.me(), group.rank_at(group.position + step), share));
    wait_all(actor, comms, "direct all-reduce messages");
}

}  // namespace

bool runs_ring_passes(AllReduceAlgorithm algorithm) {
    return algorithm == AllReduceAlgorithm::ring || algorithm == AllReduceAlgorithm::hierarchical;
}

void send_detached_message(const Actor& actor, int from, int to, double bytes, int channel) {
    const auto cost = actor.ctx.message_cost(from, to, bytes);
    if (cost.overhead_s > 0) sg4::this_actor::sleep_for(cost.overhead_s);
    if (actor.ctx.lose_message_to(to)) return;
    mailbox(actor, from, to, channel)->put_init(&g_step_token, static_cast<uint64_t>(cost.wire_bytes))->detach();
}

sg4::CommPtr receive_message(const Actor& actor, int from, int to, int channel) {
    return start_receive(actor, from, to, channel);
}

void ring_pass(const Actor& actor, const RankGroup& ring, double chunk_bytes, int steps, double extra_step_s) {
    if (ring.count < 2 || steps < 1) return;
    // The other steps follow the first back to back.
    const auto next = actor.ctx.message_cost(ring.me(), ring.next(), chunk_bytes, false, ring.count);
    const auto first = actor.ctx.passes_start_idle ? actor.ctx.message_cost(ring.me(), ring.next(), chunk_bytes, true, ring.count) : next;
    if (actor.ctx.scenario.training.fidelity == Fidelity::step) {
        for (int s = 0; s < steps; ++s) exchange(actor, ring, s == 0 ? first : next, extra_step_s);
        return;
    }
    // One aggregate flow pays the route latency and the first step's overhead once; the other steps'
    // are waited for here.
    if (steps > 1) sg4::this_actor::sleep_for((steps - 1) * (actor.ctx.route_latency_s(ring.me(), ring.next()) + next.overhead_s + extra_step_s));
    exchange(actor, ring, {first.overhead_s, first.wire_bytes + (steps - 1) * next.wire_bytes}, extra_step_s);
}

void ring_reduce_scatter(const Actor& actor, const RankGroup& ring, double bytes) {
    ring_pass(actor, ring, bytes / ring.count, ring.count - 1);
}

void ring_allgather(const Actor& actor, const RankGroup& ring, double bytes) {
    // Reductions take no simulated time: an all-gather sends the reduce-scatter's messages.
    ring_reduce_scatter(actor, ring, bytes);
}

void ring_allreduce(const Actor& actor, const RankGroup& ring, double bytes, double extra_step_s) {
    const int n = ring.count;
    // Reduce-scatter then all-gather: both send bytes/n to the next rank n-1 times over the same links,
    // so in flow fidelity they are one phase of 2(n-1) steps.
    if (n > 1) ring_pass(actor, ring, bytes / n, 2 * (n - 1), extra_step_s);
}

void hierarchical_allreduce(const Actor& actor, int rank, double bytes) {
    const int per_node = actor.ctx.scenario.cluster.gpus_per_node;
    const int nodes = actor.ctx.scenario.cluster.nodes;
    const int node = actor.ctx.scenario.cluster.node_of(rank);
    const int local = rank % per_node;

    const RankGroup intra{node * per_node, 1, per_node, local};
    const RankGroup inter{local, per_node, nodes, node};

    ring_reduce_scatter(actor, intra, bytes);
    ring_allreduce(actor, inter, bytes / per_node);
    ring_allgather(actor, intra, bytes);
}

void tree_allreduce(const Actor& actor, const RankGroup& group, double bytes) {
    if (group.count > 1) DoubleTreeRank(actor, group, bytes / 2).run();
}

void halving_doubling_allreduce(const Actor& actor, const RankGroup& group, double bytes) {
    const int n = group.count;
    const int p = group.position;
    int pof2 = 1;
    while (pof2 * 2 <= n) pof2 *= 2;
    const int extra = n - pof2;
    if (p < 2 * extra && p % 2 == 0) {  // folded away: hand over the vector, get the result back
        send(actor, group.me(), group.rank_at(p + 1), bytes);
        receive(actor, group.rank_at(p + 1), group.me());
        return;
    }
    const bool folds_in = p < 2 * extra;
    if (folds_in) receive(actor, group.rank_at(p - 1), group.me());
    // Positions among the power-of-two ranks that remain.
    const int me = folds_in ? p / 2 : p - extra;
    auto swap_with = [&](int mask, double chunk_bytes) {
        const int other = me ^ mask;
        const int partner = group.rank_at(other < extra ? 2 * other + 1 : other + extra);
        send_receive(actor, group.me(), partner, partner, actor.ctx.message_cost(group.me(), partner, chunk_bytes),
                     pair_exchange_extra_s(actor.ctx, group.me(), partner, chunk_bytes));
    };
    for (int mask = 1; mask < pof2; mask <<= 1)
        swap_with(mask, bytes / (2 * mask));  // keep half of what is left
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1)
        swap_with(mask, bytes / (2 * mask));  // and double it back
    if (folds_in) send(actor, group.me(), group.rank_at(p - 1), bytes);
}

void direct_allreduce(const Actor& actor, const RankGroup& group, double bytes) {
    if (group.count < 2) return;
    // Reduce-scatter then all-gather: the same exchange of one share with every other rank, twice.
    for (int phase = 0; phase < 2; ++phase) exchange_with_all(actor, group, bytes / group.count);
}

void binomial_broadcast(const Actor& actor, const RankGroup& group, double bytes) {
    const int p = group.position;
    if (p != 0) receive(actor, group.rank_at(p - (p & -p)), group.me());  // clear the lowest set bit
    std::vector<sg4::CommPtr> sends;
    for (int mask = 1; (p & mask) == 0 && p + mask < group.count; mask <<= 1)
        keep(sends, start_send(actor, group.me(), group.rank_at(p + mask), bytes));
    wait_all(actor, sends, "broadcast sends to complete");
}

void linear_alltoall(const Actor& actor, const RankGroup& group, double bytes) {
    if (group.count > 1) exchange_with_all(actor, group, bytes / group.count);
}

}  // namespace dtsim::sim
