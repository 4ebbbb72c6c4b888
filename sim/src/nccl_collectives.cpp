#include "dtsim/sim/nccl_collectives.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <vector>

#include "dtsim/collective_trees.hpp"
#include "dtsim/nccl_call_costs.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

// The group's ranks node by node, in the order the group walks them, and where each position is.
struct GroupShape {
    std::vector<std::vector<int>> nodes;
    std::vector<std::pair<int, int>> place;  // per group position: its node's index in `nodes`, its index there
    int ranks_per_node = 1;
};

std::shared_ptr<const GroupShape> shape_of(const ClusterSpec& cluster, const RankGroup& group) {
    auto shape = std::make_shared<GroupShape>();
    std::unordered_map<int, size_t> index_of_node;
    for (int p = 0; p < group.count; ++p) {
        const int rank = group.rank_at(p);
        const auto [it, added] = index_of_node.emplace(cluster.node_of(rank), shape->nodes.size());
        if (added) shape->nodes.emplace_back();
        auto& members = shape->nodes[it->second];
        shape->place.emplace_back(static_cast<int>(it->second), static_cast<int>(members.size()));
        members.push_back(rank);
    }
    for (const auto& members : shape->nodes) shape->ranks_per_node = std::max(shape->ranks_per_node, static_cast<int>(members.size()));
    return shape;
}

// The NICs a node's members reach, in the members' order: the rails the channels are bound to.
std::vector<int> rails_of(const ClusterSpec& cluster, const std::vector<int>& members) {
    std::vector<int> rails;
    for (int rank : members) {
        const int nic = cluster.nic_of_gpu(rank % cluster.gpus_per_node);
        if (std::find(rails.begin(), rails.end(), nic) == rails.end()) rails.push_back(nic);
    }
    return rails;
}

// Where channel `channel` enters a node: the first member on the channel's rail. The channel's ring (or
// chain) in the node starts there and goes through the members in order.
int entry_of(const ClusterSpec& cluster, const std::vector<int>& members, int channel) {
    const auto rails = rails_of(cluster, members);
    const int rail = rails[static_cast<size_t>(channel) % rails.size()];
    for (size_t i = 0; i < members.size(); ++i)
        if (cluster.nic_of_gpu(members[i] % cluster.gpus_per_node) == rail) return static_cast<int>(i);
    return 0;
}

int channels_of(const SimulationContext& ctx, const GroupShape& shape) {
    const int forced = ctx.scenario.training.strategy.nccl.channels;
    if (forced > 0) return forced;
    return shape.nodes.size() > 1 ? static_cast<int>(rails_of(ctx.scenario.cluster, shape.nodes.front()).size()) : 1;
}

NcclCall call_of(const SimulationContext& ctx, const GroupShape& shape, int ranks, NetworkOp op, double bytes) {
    const int rails = static_cast<int>(rails_of(ctx.scenario.cluster, shape.nodes.front()).size());
    return ctx.costs.nccl_call(op, ranks, static_cast<int>(shape.nodes.size()), shape.ranks_per_node, rails, bytes);
}

// One GPU-to-GPU flow of the collective, between the hosts of two ranks: one or more channels' bytes, the
// last of them `last_channel`.
struct Flow {
    int from;
    int to;
    double bytes;
    int last_channel = 0;
};

// The flows one rank sends, channel by channel. In flow fidelity a flow of one channel joins the same flow
// of the channels before it (same two GPUs, same bytes, the n-th such flow of its channel), so every link
// carries as many flows, each as many channels' bytes, and the flows end when the channels' would have; a
// 4096-GPU collective over 8 rails is two flows per rank instead of nine (one per channel, and a PXN leg).
// Two flows of one channel between the same GPUs (a node's parent in one tree and child in the other) stay
// two: one would get one share of their links where they had two.
class FlowPlan {
public:
    FlowPlan(const SimulationContext& ctx, const GroupShape& shape, int position)
        : cluster_(ctx.scenario.cluster), shape_(shape), my_node_(shape.place[static_cast<size_t>(position)].first),
          my_index_(shape.place[static_cast<size_t>(position)].second),
          merge_channels_(ctx.scenario.training.fidelity == Fidelity::flow) {}

    std::vector<Flow> flows;

    // Channel `c`'s ring: to the next member in the node, or from the node's last member to the next node's
    // entry through the NIC of the channel's rail (PXN: over NVLink to this node's entry first).
    void ring(int c, double bytes) {
        channel_ = c;
        const auto& members = mine();
        const int k = static_cast<int>(members.size());
        const int entry = entry_of(cluster_, members, c);
        const int q = (my_index_ - entry + k) % k;  // my place in the channel's order
        if (q + 1 < k) return add(me(), members[static_cast<size_t>((entry + q + 1) % k)], bytes);
        if (shape_.nodes.size() == 1) return add(me(), members[static_cast<size_t>(entry)], bytes);
        const auto& next = shape_.nodes[(static_cast<size_t>(my_node_) + 1) % shape_.nodes.size()];
        const int rail_gpu = members[static_cast<size_t>(entry)];
        add(me(), rail_gpu, bytes);
        add(rail_gpu, next[static_cast<size_t>(entry_of(cluster_, next, c))], bytes);
    }

    // Tree `t` of channel `c`: a chain in the node from its entry, the entries joined across nodes by one
    // tree of a double binary tree; `bytes` go up (reduce) and down (broadcast) every edge.
    void tree(int c, int t, double bytes) {
        channel_ = c;
        const auto& members = mine();
        const int k = static_cast<int>(members.size());
        const int entry = entry_of(cluster_, members, c);
        const int q = (my_index_ - entry + k) % k;
        auto at = [&](int place) { return members[static_cast<size_t>((entry + place) % k)]; };
        if (q > 0) add(me(), at(q - 1), bytes);
        if (q + 1 < k) add(me(), at(q + 1), bytes);
        if (q == 0) tree_across_nodes(c, t, bytes);
    }

    // Tree `t` of channel `c` between nodes, from this rank if it is the channel's entry (head) on its node:
    // `bytes` to its parent and children, the heads of the same channel on their nodes.
    void tree_across_nodes(int c, int t, double bytes) {
        channel_ = c;
        if (shape_.nodes.size() == 1 || my_index_ != entry_of(cluster_, mine(), c)) return;
        const auto links = double_binary_tree(static_cast<int>(shape_.nodes.size()), my_node_, t);
        auto head = [&](int node) {
            const auto& other = shape_.nodes[static_cast<size_t>(node)];
            return other[static_cast<size_t>(entry_of(cluster_, other, c))];
        };
        if (links.parent >= 0) add(me(), head(links.parent), bytes);
        for (int child : links.children) add(me(), head(child), bytes);
    }

    // To the next member in the node (a ring within the node; through NVLS, the switch reduces and
    // every member's port carries the bytes each way).
    void next_in_node(int c, double bytes) {
        channel_ = c;
        const auto& members = mine();
        add(me(), members[(static_cast<size_t>(my_index_) + 1) % members.size()], bytes);
    }

    // A share to every other member: within the node directly, to another node through the NIC of the
    // receiver's rail, over NVLink first to this node's member on that rail where it is not this rank (PXN).
    // Each receiver is its own channel, so that in flow fidelity a pair's flows join and in step fidelity
    // each leg stays a flow.
    void alltoall(double share) {
        const auto& members = mine();
        for (size_t node = 0; node < shape_.nodes.size(); ++node)
            for (size_t index = 0; index < shape_.nodes[node].size(); ++index) {
                const int to = shape_.nodes[node][index];
                channel_ = static_cast<int>(node * shape_.nodes.front().size() + index);
                if (static_cast<int>(node) == my_node_) {
                    add(me(), to, share);
                    continue;
                }
                int proxy = me();
                for (int member : members)
                    if (cluster_.nic_of_gpu(member % cluster_.gpus_per_node) == cluster_.nic_of_gpu(to % cluster_.gpus_per_node)) {
                        proxy = member;
                        break;
                    }
                add(me(), proxy, share);
                add(proxy, to, share);
            }
    }

    // PAT's steps with one member per node, every step at once: to the member 2^k nodes on, the min(2^k, N - 2^k)
    // shares of step k (a Bruck all-gather, or the reduce-scatter that reverses it), N - 1 shares in all.
    void pat(double share) {
        const int nodes = static_cast<int>(shape_.nodes.size());
        for (int distance = 1; distance < nodes; distance *= 2) {
            channel_ = distance;
            add(me(), shape_.nodes[static_cast<size_t>((my_node_ + distance) % nodes)].front(), std::min(distance, nodes - distance) * share);
        }
    }

    // To the member at the same place on the next node: through SHARP switches, every member's NIC
    // carries its share each way once.
    void next_node(int c, double bytes) {
        channel_ = c;
        const auto& next = shape_.nodes[(static_cast<size_t>(my_node_) + 1) % shape_.nodes.size()];
        add(me(), next[std::min(static_cast<size_t>(my_index_), next.size() - 1)], bytes);
    }

private:
    const std::vector<int>& mine() const { return shape_.nodes[static_cast<size_t>(my_node_)]; }
    int me() const { return mine()[static_cast<size_t>(my_index_)]; }
    void add(int from, int to, double bytes) {
        if (from == to || bytes <= 0) return;
        if (merge_channels_) {
            const auto same = std::find_if(flows.begin(), flows.end(), [&](const Flow& f) {
                return f.from == from && f.to == to && f.last_channel != channel_;
            });
            if (same != flows.end()) {
                same->bytes += bytes;
                same->last_channel = channel_;
                return;
            }
        }
        flows.push_back({from, to, bytes, channel_});
    }

    const ClusterSpec& cluster_;
    const GroupShape& shape_;
    const int my_node_;
    const int my_index_;
    const bool merge_channels_;
    int channel_ = 0;  // the channel whose flows are being added (channels come in increasing order)
};

// What one call of a group costs beyond its flows, the same for every member, and what its flows follow.
struct Charge {
    NetworkOp op = NetworkOp::allreduce;
    double bytes = 0;
    NcclCall call;
    NcclChoice choice;
    int channels = 1;
    double launch_s = 0;  // the call's kernel launch, which NCCL's latency model leaves out
    NcclCallCosts costs;  // none for an all-to-all: NCCL's tuning model has no latency for point-to-point sends
    double wait_s() const { return launch_s + costs.latency_s + costs.fill_s; }
};

Charge charge_of(const SimulationContext& ctx, const GroupShape& shape, int ranks, NetworkOp op, double bytes) {
    Charge charge;
    charge.op = op;
    charge.bytes = bytes;
    charge.launch_s = ctx.costs.compute().per_kernel_s;
    if (op == NetworkOp::alltoall) return charge;
    const auto& spec = ctx.scenario.training.strategy.nccl;
    charge.call = call_of(ctx, shape, ranks, op, bytes);
    charge.choice = choose_nccl(ctx.costs.nccl(), charge.call, spec);
    charge.channels = channels_of(ctx, shape);
    charge.costs = nccl_call_costs(ctx.costs.nccl(), charge.call, charge.choice, charge.channels, spec.chunk_bytes);
    return charge;
}

// The flows of a ring collective's algorithm (or NVLS, CollNet, PAT) as `charge` chose it, into `flows`.
void add_collective_flows(FlowPlan& flows, const Charge& charge, double ranks, double ranks_per_node) {
    const auto& call = charge.call;
    const int channels = charge.channels;
    const double bytes = charge.bytes * charge.costs.bandwidth_scale, n = ranks, k = ranks_per_node;
    const double per_channel = bytes / channels, fraction = charge.costs.payload_fraction;
    switch (charge.choice.algorithm) {
        case NcclAlgorithm::automatic:
        case NcclAlgorithm::ring: {
            const double steps_share = (charge.op == NetworkOp::allreduce ? 2 : 1) * (n - 1) / n;
            for (int c = 0; c < channels; ++c) flows.ring(c, steps_share * per_channel / fraction);
            break;
        }
        case NcclAlgorithm::tree:
            // Half of the channel per tree.
            for (int c = 0; c < channels; ++c)
                for (int t = 0; t < 2; ++t) flows.tree(c, t, per_channel / 2 / fraction);
            break;
        case NcclAlgorithm::nvls:
            for (int c = 0; c < channels; ++c) flows.next_in_node(c, bytes / call.nvls_efficiency / channels);
            break;
        case NcclAlgorithm::nvls_tree:
            // The switch reduces each node's data and multicasts the result as NVLS does; each head (the GPU on
            // a rail: NCCL's NVLS channels, one per NIC, whatever the compute channels) sends its share, half in
            // each tree, up and down the tree between the nodes.
            for (int head = 0; head < call.rails; ++head) {
                flows.next_in_node(head, bytes / call.nvls_efficiency / call.rails);
                for (int t = 0; t < 2; ++t) flows.tree_across_nodes(head, t, bytes / call.rails / 2);
            }
            break;
        case NcclAlgorithm::collnet: {
            // Within the node a ring reduce-scatter and all-gather; each member's share through the switches.
            const double ring_wire = 2 * (k - 1) / k * per_channel, share_wire = per_channel / k / call.collnet_efficiency;
            for (int c = 0; c < channels; ++c) {
                if (k > 1) flows.next_in_node(c, ring_wire);
                flows.next_node(c, share_wire);
            }
            break;
        }
        case NcclAlgorithm::pat: flows.pat(bytes / n / fraction); break;
    }
}

// The flows the member at `position` of the group adds to the call.
std::vector<Flow> member_flows(const SimulationContext& ctx, const GroupShape& shape, const Charge& charge, int position) {
    FlowPlan flows(ctx, shape, position);
    const auto ranks = static_cast<double>(shape.place.size());
    if (charge.op == NetworkOp::alltoall)
        flows.alltoall(charge.bytes / ranks);
    else
        add_collective_flows(flows, charge, ranks, shape.ranks_per_node);
    // The ranks of a simulated rank's tensor group behind its NIC send the same flows between nodes at once
    // (SimulationContext::nic_sharers, as for every other message).
    const auto& cluster = ctx.scenario.cluster;
    for (auto& flow : flows.flows)
        if (cluster.node_of(flow.from) != cluster.node_of(flow.to)) flow.bytes *= ctx.nic_sharers;
    return std::move(flows.flows);
}

// Every flow of one call that is simulated, by the rank that sends it and by the rank that receives it, and
// what every member waits besides (the same for all: launch, latency and fill depend on the group alone).
struct CallFlows {
    NetworkOp op;
    double bytes;
    double wait_s = 0;
    std::unordered_map<int, std::vector<Flow>> sent;
    std::unordered_map<int, std::vector<Flow>> received;
};

// Which flows of a group stand for identical copies of themselves, where the collective has the network to
// itself and no fault makes one link unlike the others (SimulationContext::collectives_run_alone):
// - every node whose members sit where the first node's do sends the same flows inside itself, over links of
//   its own (its GPUs' intra-node links): the first node's stand for all;
// - on a rail-optimized fabric a channel's flows between nodes stay on its rail (NIC to rail switch to NIC),
//   and rails that carry as many channels carry copies of the same flows over identical links: those of
//   the first member's rail stand for all.
// The others are not simulated. Copies on disjoint, identical links get the same shares of them and end
// together, so the collective, whose members start and end together, ends when the copies kept do.
class FlowCopies {
public:
    FlowCopies(const SimulationContext& ctx, const GroupShape& shape) : cluster_(ctx.scenario.cluster) {
        if (!ctx.collectives_run_alone || !nodes_alike(shape)) return;
        const auto& first = shape.nodes.front();
        node_ = cluster_.node_of(first.front());
        const auto rails = rails_of(cluster_, first);
        const auto channels = static_cast<size_t>(channels_of(ctx, shape));
        if (cluster_.fabric.topology == Topology::rail_optimized && rails.size() > 1 &&
            (channels <= rails.size() || channels % rails.size() == 0))
            rail_ = rails.front();
    }

    bool simulated(const Flow& flow) const {
        if (node_ < 0) return true;
        const int from = cluster_.node_of(flow.from);
        if (from == cluster_.node_of(flow.to)) return from == node_;
        return rail_ < 0 || cluster_.nic_of_gpu(flow.from % cluster_.gpus_per_node) == rail_;
    }

private:
    bool nodes_alike(const GroupShape& shape) const {
        const auto& first = shape.nodes.front();
        return std::all_of(shape.nodes.begin(), shape.nodes.end(), [&](const std::vector<int>& members) {
            if (members.size() != first.size()) return false;
            for (size_t i = 0; i < members.size(); ++i)
                if (members[i] % cluster_.gpus_per_node != first[i] % cluster_.gpus_per_node) return false;
            return true;
        });
    }

    const ClusterSpec& cluster_;
    int node_ = -1;  // the node whose flows inside it are simulated; -1: every flow is
    int rail_ = -1;  // the NIC whose flows between nodes are simulated; -1: every NIC's
};

const std::vector<Flow>& flows_at(const std::unordered_map<int, std::vector<Flow>>& flows, int rank) {
    static const std::vector<Flow> none;
    const auto found = flows.find(rank);
    return found == flows.end() ? none : found->second;
}

// What a group derives once: its shape, and the flows of its latest call, which the first member to reach a
// call derives for all (a 4096-rank group has 4096 members asking). A flow is sent by its sender's actor and
// received by its receiver's, as mailbox messages: host-to-host comms are detached, and SimGrid finds each
// finished detached comm in one list of all of them, which made a 4096-GPU call take minutes.
class GroupState {
public:
    GroupState(const SimulationContext& ctx, const RankGroup& group)
        : shape(shape_of(ctx.scenario.cluster, group)), copies_(ctx, *shape) {}

    const std::shared_ptr<const GroupShape> shape;

    std::shared_ptr<const CallFlows> flows_of(const SimulationContext& ctx, const RankGroup& group, NetworkOp op, double bytes) const {
        if (latest_ && latest_->op == op && latest_->bytes == bytes) return latest_;
        const auto charge = charge_of(ctx, *shape, group.count, op, bytes);
        auto flows = std::make_shared<CallFlows>(CallFlows{op, bytes, charge.wait_s(), {}, {}});
        for (int position = 0; position < group.count; ++position) {
            for (const auto& flow : member_flows(ctx, *shape, charge, position)) {
                if (!copies_.simulated(flow)) continue;
                flows->sent[flow.from].push_back(flow);
                flows->received[flow.to].push_back(flow);
            }
        }
        latest_ = flows;
        return latest_;
    }

private:
    const FlowCopies copies_;
    // The members of a call hold its flows until they are done; the end barrier keeps the next call's first
    // member from arriving before then.
    mutable std::shared_ptr<const CallFlows> latest_;
};

int g_flow_token = 0;            // payload of the flows' messages: only their simulated size matters
int* g_received = nullptr;  // where their receives put it

}  // namespace

void nccl_collective(const Actor& actor, const RankGroup& group, NetworkOp op, double bytes) {
    if (group.count < 2 || bytes <= 0) return;
    auto& ctx = actor.ctx;
    auto& shared = ctx.collective_group(actor.stream, group.first, group.stride, group.count, group.members);
    if (!shared.layout) shared.layout = std::make_shared<const GroupState>(ctx, group);
    const auto& state = *std::static_pointer_cast<const GroupState>(shared.layout);
    const auto flows = state.flows_of(ctx, group, op, bytes);
    actor.waits_for("every member to start the NCCL collective");
    shared.barrier->wait();
    sg4::this_actor::sleep_for(flows->wait_s);
    const int me = group.me(), channel = actor.stream * kChannelsPerStream;
    std::vector<sg4::CommPtr> comms;
    for (const auto& flow : flows_at(flows->sent, me)) {
        comms.push_back(ctx.link_mailbox(me, flow.to, channel)->put_async(&g_flow_token, static_cast<uint64_t>(flow.bytes)));
    }
    for (const auto& flow : flows_at(flows->received, me))
        comms.push_back(ctx.link_mailbox(flow.from, me, channel)->get_async<int>(&g_received));
    actor.waits_for("the NCCL collective's flows", -1);
    sg4::Comm::wait_all(comms);
    actor.waits_for("every member to finish the NCCL collective");
    shared.barrier->wait();
}

double nccl_collective_alone_s(const SimulationContext& ctx, const RankGroup& group, NetworkOp op, double bytes) {
    if (group.count < 2 || bytes <= 0) return 0;
    const auto charge = charge_of(ctx, *shape_of(ctx.scenario.cluster, group), group.count, op, bytes);
    return charge.wait_s() + charge.costs.bottleneck_s;
}

}  // namespace dtsim::sim
