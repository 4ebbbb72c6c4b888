#include "dtsim/simulation_events.hpp"

#include <algorithm>
#include <cmath>

#include "dtsim/buckets.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/llm_costs.hpp"
#include "dtsim/parallel_layout.hpp"

namespace dtsim {
namespace {

// Messages one member of an all-reduce over `ranks` sends, on average.
double allreduce_per_rank(AllReduceAlgorithm algorithm, int ranks, const ClusterSpec& cluster, Fidelity fidelity) {
    return ranks < 2 ? 0 : allreduce_messages(algorithm, ranks, cluster, fidelity) / ranks;
}

double pass_per_rank(int ranks, Fidelity fidelity) {
    return ranks < 2 ? 0 : ring_pass_messages(ranks, ranks - 1, fidelity) / ranks;
}

// Data-parallel training of whole replicas: every bucket's collectives (allreduce_actor.cpp).
double allreduce_strategy_messages(const Scenario& scenario, double buckets) {
    const auto& training = scenario.training;
    const int n = scenario.cluster.gpus();
    const auto algorithm = training.strategy.algorithm;
    const auto compression = training.compression.kind;
    // Top-k pairs are gathered rather than summed; PowerSGD all-reduces its two factors one after the other.
    double per_bucket = compression == CompressionKind::topk
                            ? ring_pass_messages(n, n - 1, training.fidelity)
                            : allreduce_messages(algorithm, n, scenario.cluster, training.fidelity);
    if (compression == CompressionKind::powersgd) per_bucket += allreduce_messages(algorithm, n, scenario.cluster, training.fidelity);
    return buckets * per_bucket;
}

// Every endpoint pushes its shard of each bucket to every server holding part of it, and pulls it back
// (parameter_server_actors.cpp); in flow fidelity or with local aggregation a NIC's GPUs are one endpoint.
double parameter_server_messages(const Scenario& scenario, double buckets) {
    const auto& cluster = scenario.cluster;
    const auto& strategy = scenario.training.strategy;
    const double endpoints = 1.0 * cluster.gpus() / parameter_server_endpoint_gpus(scenario.training, cluster);
    const double shards = strategy.sharding == Sharding::by_size ? strategy.servers : 1;
    return endpoints * buckets * shards * 2;
}

// One rank of an LLM layout at pipeline stage `stage`, per iteration (llm_actors.cpp, llm_streams.cpp).
class LlmRankMessages {
public:
    LlmRankMessages(const Scenario& scenario, const LlmCosts& costs, const ParallelLayout& layout)
        : scenario_(scenario), llm_(*scenario.training.llm), costs_(costs), layout_(layout),
          fidelity_(scenario.training.fidelity), microbatches_(scenario.training.accumulation_steps) {}

    double at_stage(int stage) const {
        const int stages = llm_.parallelism.pipeline;
        const int virtual_count = stages * llm_.pipeline.virtual_stages;
        double messages = 0;
        for (int chunk = 0; chunk < llm_.pipeline.virtual_stages; ++chunk) {
            const int index = chunk * stages + stage;
            // Activations to the next virtual stage in forward, their gradients to the previous in backward.
            messages += microbatches_ * ((index < virtual_count - 1 ? 1 : 0) + (index > 0 ? 1 : 0));
            messages += layers_messages(costs_.virtual_stages[static_cast<size_t>(index)]);
        }
        return messages + optimizer_gather_messages(stage);
    }

private:
    double layers_messages(const std::vector<RankLayer>& layers) const {
        const int tensor = llm_.parallelism.tensor, context = llm_.parallelism.context, expert = llm_.parallelism.expert;
        // In flow fidelity one rank stands for its tensor group, which prices its collectives instead.
        const double tensor_collective = fidelity_ == Fidelity::flow || tensor < 2 ? 0
                                         : nccl()                                ? allreduce_per_rank(algorithm(), tensor, scenario_.cluster, fidelity_)
                                                                                 : 2.0 * (tensor - 1);
        const double context_pass = pass(context);
        const double alltoall = expert - 1;
        const auto groups = data_groups();
        double per_microbatch = 0;
        for (const auto& layer : layers) {
            per_microbatch += tensor_collective * ((layer.tensor_collective ? 2 : 0) + (layer.repeats_tensor_collective ? 1 : 0));
            if (layer.attention) per_microbatch += 2 * context_pass;
            if (layer.expert && expert > 1) per_microbatch += 4 * alltoall;
            // ZeRO-3 and FSDP gather a layer's parameters before each of its passes.
            if (llm_.shards_parameters() && layer.parameter_bytes > 0)
                per_microbatch += 2 * pass(layer.expert ? groups.expert : groups.shard);
        }
        const double reducing_microbatches = llm_.zero_stage >= 2 ? microbatches_ : 1;
        return microbatches_ * per_microbatch + reducing_microbatches * gradient_messages(layers, groups);
    }

    struct Groups {
        int dense = 1, expert = 1, shard = 1, replica = 1;
    };

    Groups data_groups() const {
        Groups groups;
        groups.dense = layout_.data_group(0).count;
        groups.expert = layout_.group(0, Dimension::dp).count;
        groups.shard = llm_.shard_ranks(groups.dense, scenario_.cluster.gpus_per_node);
        if (llm_.hybrid_sharding()) groups.replica = groups.dense / groups.shard;
        return groups;
    }

    // One collective per dense bucket and per expert layer, by ZeRO stage.
    double gradient_messages(const std::vector<RankLayer>& layers, const Groups& groups) const {
        std::vector<LayerWork> dense;
        double expert_layers = 0;
        for (const auto& layer : layers) {
            dense.push_back(LayerWork{layer.name, layer.expert ? 0 : layer.gradient_bytes, 0, 0});
            expert_layers += layer.expert && layer.gradient_bytes > 0;
        }
        double dense_buckets = 0;
        for (const auto& bucket : make_buckets(dense, scenario_.training.strategy.bucket_bytes).buckets) dense_buckets += bucket.bytes > 0;
        return dense_buckets * reduction_messages(groups.dense, groups) + expert_layers * reduction_messages(groups.expert, groups);
    }

    double reduction_messages(int group, const Groups& groups) const {
        if (llm_.hybrid_sharding()) return pass(groups.shard) + allreduce_per_rank(algorithm(), groups.replica, scenario_.cluster, fidelity_);
        if (llm_.zero_stage == 0) return allreduce_per_rank(algorithm(), group, scenario_.cluster, fidelity_);
        return pass(group);
    }

    AllReduceAlgorithm algorithm() const { return scenario_.training.strategy.algorithm; }
    bool nccl() const { return algorithm() == AllReduceAlgorithm::nccl; }

    // A reduce-scatter or all-gather over `ranks`: a ring's steps, or NCCL's one flow per member and channel.
    double pass(int ranks) const {
        if (!nccl() || ranks < 2) return pass_per_rank(ranks, fidelity_);
        return ranks > scenario_.cluster.gpus_per_node ? scenario_.cluster.nics_per_node : 1;
    }

    // ZeRO-1 and -2 gather the updated parameters after the optimizer step: dense, and expert where a stage has any.
    double optimizer_gather_messages(int stage) const {
        if (llm_.zero_stage == 0 || llm_.shards_parameters()) return 0;
        const auto groups = data_groups();
        return pass(groups.dense) + (costs_.stage_contents(stage, llm_.parallelism.pipeline).expert_parameters > 0 ? pass(groups.expert) : 0);
    }

    const Scenario& scenario_;
    const LlmSpec& llm_;
    const LlmCosts& costs_;
    const ParallelLayout& layout_;
    const Fidelity fidelity_;
    const int microbatches_;
};

double llm_messages(const Scenario& scenario, const LlmCosts& costs) {
    const auto& llm = *scenario.training.llm;
    const ParallelLayout layout(llm.parallelism);
    // In flow fidelity one rank per tensor group is simulated (docs/llm.md, "Scale").
    const double simulated = scenario.training.fidelity == Fidelity::flow ? 1.0 * scenario.cluster.gpus() / llm.parallelism.tensor
                                                                          : scenario.cluster.gpus();
    const int stages = llm.parallelism.pipeline;
    const LlmRankMessages rank(scenario, costs, layout);
    double messages = 0;
    for (int stage = 0; stage < stages; ++stage) messages += simulated / stages * rank.at_stage(stage);
    return messages;
}

}  // namespace

double ring_pass_messages(int ranks, int steps, Fidelity fidelity) {
    if (ranks < 2 || steps < 1) return 0;
    return 1.0 * ranks * (fidelity == Fidelity::step ? steps : 1);
}

double allreduce_messages(AllReduceAlgorithm algorithm, int ranks, const ClusterSpec& cluster, Fidelity fidelity) {
    if (ranks < 2) return 0;
    const double n = ranks;
    switch (algorithm) {
        case AllReduceAlgorithm::ring: return ring_pass_messages(ranks, 2 * (ranks - 1), fidelity);
        case AllReduceAlgorithm::hierarchical: {
            // Every GPU: a reduce-scatter and an all-gather within its node, an all-reduce across nodes.
            const int per_node = cluster.gpus_per_node, nodes = cluster.nodes;
            const double passes = 2 * ring_pass_messages(per_node, per_node - 1, fidelity) / per_node +
                                  ring_pass_messages(nodes, 2 * (nodes - 1), fidelity) / nodes;
            return n * passes;
        }
        case AllReduceAlgorithm::tree: return 4 * (n - 1);
        case AllReduceAlgorithm::halving_doubling: {
            int power = 1, steps = 0;
            for (; power * 2 <= ranks; power *= 2) ++steps;
            return 2.0 * power * steps + 2.0 * (ranks - power);
        }
        case AllReduceAlgorithm::direct: return 2 * n * (n - 1);
        case AllReduceAlgorithm::nccl:
            // One flow per member and channel, two with the double binary tree; a channel per NIC rail
            // across nodes (a forced channel count is not seen here: the estimate is an order of magnitude).
            return 2 * n * (ranks > cluster.gpus_per_node ? cluster.nics_per_node : 1);
    }
    return 0;
}

SimulationEvents estimate_events(const Scenario& scenario, const CostModel& costs) {
    double per_iteration = 0;
    if (scenario.training.llm) {
        per_iteration = llm_messages(scenario, *costs.llm());
    } else {
        const double buckets = static_cast<double>(make_buckets(costs.layers(), scenario.training.strategy.bucket_bytes).buckets.size());
        per_iteration = scenario.training.strategy.kind == StrategyKind::parameter_server ? parameter_server_messages(scenario, buckets)
                                                                                          : allreduce_strategy_messages(scenario, buckets);
    }
    return {per_iteration, per_iteration * scenario.training.iterations};
}

}  // namespace dtsim
