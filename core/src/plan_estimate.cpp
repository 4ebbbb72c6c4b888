#include "dtsim/plan_estimate.hpp"

#include <algorithm>

#include "dtsim/cost_model.hpp"
#include "dtsim/llm_costs.hpp"
#include "dtsim/parallel_layout.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {
namespace {

// The rate and latency one rank gets in a group along a dimension: the GPU link within a node; across
// nodes the NIC, shared by the GPUs that send through it (every rank of the node communicates at once).
struct GroupLink {
    double bytes_per_second = 0;
    double latency_s = 0;
    int count = 1;
    double ring_s(double bytes, double passes) const {  // a ring collective's `passes` passes over `bytes`
        if (count <= 1) return 0;
        return passes * ((count - 1.0) / count * bytes / bytes_per_second + (count - 1) * latency_s);
    }
    double send_s(double bytes) const { return count <= 1 ? 0 : bytes / bytes_per_second + latency_s; }
};

bool crosses_nodes(const Scenario& scenario, const StridedGroup& group) {
    return scenario.cluster.node_of(group.first) != scenario.cluster.node_of(group.rank_at(group.count - 1));
}

GroupLink group_link(const Scenario& scenario, const CostModel& costs, const StridedGroup& group) {
    if (group.count <= 1) return {};
    const auto& cluster = scenario.cluster;
    const bool crosses = crosses_nodes(scenario, group);
    const auto& link = crosses ? costs.nic() : costs.intra_node();
    const double sharing = crosses ? 1.0 * cluster.gpus_per_node / cluster.nics_per_node : 1.0;
    return GroupLink{link.effective_bytes_per_second() / sharing, link.latency_s, group.count};
}

struct StageWork {
    double forward_s = 0;
    double backward_s = 0;
    int tensor_collectives = 0;  // per microbatch, both passes
    int attention_layers = 0;
    int expert_layers = 0;
    double dense_gradient_bytes = 0;
    double expert_gradient_bytes = 0;
    double parameters = 0;
    double parameter_bytes = 0;  // in the training precision: what the sharded stages gather
};

StageWork stage_work(const LlmCosts& llm, int stage, int stages) {
    StageWork work;
    for (size_t index = static_cast<size_t>(stage); index < llm.virtual_stages.size(); index += static_cast<size_t>(stages))
        for (const auto& layer : llm.virtual_stages[index]) {
            work.forward_s += layer.forward_s;
            work.backward_s += layer.backward_s;
            work.tensor_collectives += layer.tensor_collective ? 2 + (layer.repeats_tensor_collective ? 1 : 0) : 0;
            work.attention_layers += layer.attention ? 1 : 0;
            work.expert_layers += layer.expert ? 1 : 0;
            (layer.expert ? work.expert_gradient_bytes : work.dense_gradient_bytes) += layer.gradient_bytes;
            work.parameters += layer.parameters;
            work.parameter_bytes += layer.parameter_bytes;
        }
    return work;
}

}  // namespace

bool group_crosses_nodes(const Scenario& scenario, Dimension d) {
    const ParallelLayout layout(scenario.training.llm->parallelism);
    return crosses_nodes(scenario, d == Dimension::dp ? layout.data_group(0) : layout.group(0, d));
}

double PlanEstimate::iteration_s() const {
    double total = compute_s + bubble_s + optimizer_s;
    for (double s : exposed_s) total += s;
    return total;
}

PlanEstimate estimate_iteration(const Scenario& scenario, const CostModel& costs) {
    const auto& spec = *scenario.training.llm;
    const auto& p = spec.parallelism;
    const auto& llm = *costs.llm();
    const ParallelLayout layout(p);
    const auto link = [&](Dimension d) { return group_link(scenario, costs, layout.group(0, d)); };
    const auto tp = link(Dimension::tp), cp = link(Dimension::cp), ep = link(Dimension::ep), pp = link(Dimension::pp);
    // The data group's sharding: all of it, or with hybrid FSDP a shard group within the node whose shards
    // are all-reduced across the replica groups.
    const auto data = layout.data_group(0);
    const int shard_ranks = spec.shard_ranks(data.count, scenario.cluster.gpus_per_node);
    const auto shard = group_link(scenario, costs, StridedGroup{data.first, data.stride, shard_ranks, 0});
    const auto replicas = group_link(scenario, costs, StridedGroup{data.first, data.stride * shard_ranks, data.count / shard_ranks, 0});
    const auto expert_dp = link(Dimension::dp);
    const int m = scenario.training.accumulation_steps;
    const int v = spec.pipeline.virtual_stages;

    PlanEstimate best;
    for (int stage = 0; stage < p.pipeline; ++stage) {
        const auto work = stage_work(llm, stage, p.pipeline);
        PlanEstimate e;
        // On the critical path of every microbatch: the tensor collectives (reduce-scatter + all-gather with
        // sequence parallelism moves what an all-reduce does), the context exchanges and the MoE all-to-alls.
        const double tp_s = work.tensor_collectives * tp.ring_s(llm.tensor_bytes, 2);
        const double cp_s = 2 * work.attention_layers * (cp.count - 1) * cp.send_s(llm.context_bytes);
        const double ep_s = 2 * 2 * work.expert_layers * ep.ring_s(llm.alltoall_bytes, 1);
        const double microbatch_s = work.forward_s + work.backward_s + tp_s + cp_s + ep_s;
        e.compute_s = m * (work.forward_s + work.backward_s);
        e.exposed_s[static_cast<size_t>(Dimension::tp)] = m * tp_s;
        e.exposed_s[static_cast<size_t>(Dimension::cp)] = m * cp_s;
        e.exposed_s[static_cast<size_t>(Dimension::ep)] = m * ep_s;
        e.bubble_s = (p.pipeline - 1.0) / v * microbatch_s;
        e.exposed_s[static_cast<size_t>(Dimension::pp)] = p.pipeline > 1 ? 2 * (m * v + p.pipeline - 1.0) * pp.send_s(llm.pipeline_bytes) : 0;

        // Data parallelism: gradients reduced over the data group (experts' over the expert-data group),
        // the sharded stages' gathers, each hidden behind the compute it overlaps with.
        // A pass of a ring over the data group moves (N−1)/N of the bytes: a reduce-scatter, or half an all-reduce.
        const double gradients_s = shard.ring_s(work.dense_gradient_bytes, 1) + replicas.ring_s(work.dense_gradient_bytes / shard_ranks, 2) +
                                   expert_dp.ring_s(work.expert_gradient_bytes, 1);
        const double gather_s = shard.ring_s(work.parameter_bytes, 1);
        const int zero = spec.zero_stage;
        double dp_s = 0;
        if (zero == 0) dp_s = std::max(0.0, 2 * gradients_s - work.backward_s);
        if (zero == 1) dp_s = std::max(0.0, gradients_s - work.backward_s) + gather_s;
        if (zero == 2) dp_s = m * std::max(0.0, gradients_s - work.backward_s) + gather_s;
        if (zero == 3) dp_s = m * std::max(0.0, 2 * gather_s + gradients_s - work.forward_s - work.backward_s) + gather_s;
        e.exposed_s[static_cast<size_t>(Dimension::dp)] = dp_s;
        const double shards = zero >= 1 ? shard_ranks : 1;
        e.optimizer_s = llm.optimizer_s(work.parameters / shards);
        if (e.iteration_s() > best.iteration_s()) best = e;
    }
    return best;
}

}  // namespace dtsim
