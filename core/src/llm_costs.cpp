#include "dtsim/llm_costs.hpp"

#include <algorithm>

#include "dtsim/scenario.hpp"

namespace dtsim {

BlockRange stage_blocks(const PipelineSpec& pipeline, int blocks, int index, int count) {
    const int first = pipeline.first_stage_layers, last = pipeline.last_stage_layers;
    if (first == 0 && last == 0) {
        // Slots: the blocks, and the embeddings before them and the loss after them where they count.
        const int before = pipeline.embedding_in_split ? 1 : 0;
        const int slots = blocks + pipeline.counted_slots();
        const auto block_at = [&](int chunk) { return std::clamp(slots * chunk / count - before, 0, blocks); };
        return BlockRange{block_at(index), block_at(index + 1)};
    }
    // Only without interleaving (the loader checks): stage i of `count`.
    const int middle = count > 2 ? (blocks - first - last) / (count - 2) : 0;
    const auto start = [&](int stage) { return stage == 0 ? 0 : first + (stage - 1) * middle; };
    return BlockRange{start(index), index == count - 1 ? blocks : start(index + 1)};
}

std::vector<ZooLayer> scenario_transformer_layers(const Scenario& scenario) {
    return transformer_layers(*scenario.model.zoo->transformer, scenario.training.llm->sequence_length,
                              scenario.model.attention);
}

LlmCosts::StageContents LlmCosts::stage_contents(int stage, int stages) const {
    StageContents contents;
    for (size_t index = static_cast<size_t>(stage); index < virtual_stages.size(); index += static_cast<size_t>(stages))
        for (const auto& layer : virtual_stages[index]) {
            (layer.expert ? contents.expert_parameters : contents.dense_parameters) += layer.parameters;
            contents.blocks += layer.attention ? 1 : 0;
        }
    return contents;
}

namespace {

bool is_mlp(const ZooLayer& layer) { return layer.name.size() > 4 && layer.name.ends_with(".mlp"); }
bool is_attention(const ZooLayer& layer) { return layer.name.ends_with(".attn"); }

// One rank's part of a layer's kernels: tensor parallelism splits the products, the attention heads and
// the feature-wise kernels t ways, and the kernels over the whole hidden state only with sequence
// parallelism; context parallelism splits the tokens c ways; the weights are split `weight_split` ways.
// A GEMM's shape follows: a tensor-sharded GEMM loses t of its columns or depth (Megatron's column- and
// row-parallel layers, on every token the sequence-parallel all-gather brought), any other GEMM t of its
// rows under sequence parallelism; context parallelism takes c of the rows; an expert's GEMM gets the rows
// of `expert_ranks` ranks' tokens (the all-to-all brings each expert its tokens from the expert group).
std::vector<Kernel> shard_kernels(std::vector<Kernel> kernels, const ParallelismSpec& p, double weight_split,
                                  int expert_ranks) {
    for (auto& kernel : kernels) {
        const double t = kernel.tensor_sharded || p.sequence_parallel ? p.tensor : 1;
        kernel.flops /= t * p.context;
        kernel.overhead_flops /= t * p.context;
        kernel.elements /= t * p.context;
        kernel.weight_elements /= kernel.tensor_sharded ? weight_split : 1;
        auto& shape = kernel.shape;
        shape.rows *= static_cast<double>(expert_ranks) / p.context;
        if (!kernel.tensor_sharded)
            shape.rows /= t;
        else if (kernel.tensor_splits_depth)
            shape.depth /= p.tensor;
        else
            shape.columns /= p.tensor;
    }
    return kernels;
}

// Selective recomputation redoes attention's core in backward.
double attention_core_forward_s(const ZooLayer& layer, double batch, double element_bytes, const ComputeRates& rates) {
    double seconds = 0;
    for (const auto& kernel : layer.kernels)
        if (kernel.kind == KernelKind::attention_core) seconds += kernel_forward_s(kernel, batch, element_bytes, rates);
    return seconds;
}

}  // namespace

LlmCosts llm_costs(const Scenario& scenario, const ComputeRates& rates) {
    const auto& llm = *scenario.training.llm;
    const auto& config = *scenario.model.zoo->transformer;
    const auto& p = llm.parallelism;
    const double element = bytes_per_element(scenario.model.precision);
    const double reduce_element = llm.gradient_element_bytes(scenario.model.precision);
    const double b = scenario.model.batch_per_gpu;
    const double s = llm.sequence_length;
    const double local_tokens = b * s / p.context;
    const auto full = scenario_transformer_layers(scenario);

    LlmCosts costs;
    costs.tokens_per_sequence = llm.sequence_length;
    costs.tensor_bytes = local_tokens * config.hidden * element;
    costs.pipeline_bytes = costs.tensor_bytes / p.tensor;
    costs.alltoall_bytes = local_tokens * config.hidden * config.top_k * element / p.tensor;
    costs.context_bytes = 2 * local_tokens * config.head_dim() * config.kv_heads * element / p.tensor;
    costs.optimizer_bytes_per_parameter = scenario.training.optimizer_or_adam().step_bytes_per_parameter(scenario.model.precision, reduce_element);
    costs.memory_bytes_per_second = rates.memory_bytes_per_second;

    double forward_flops = 0, recompute_flops = 0;
    for (const auto& layer : full) {
        forward_flops += layer.forward_flops_per_sample;
        const bool block = is_attention(layer) || is_mlp(layer);
        if (llm.recompute == Recompute::full && block) recompute_flops += layer.forward_flops_per_sample;
        if (llm.recompute == Recompute::selective && is_attention(layer)) recompute_flops += 4 * s * s * config.hidden;
    }
    costs.model_flops_per_sequence = 3 * forward_flops;
    ZooModel whole;
    whole.layers = full;
    for (const auto& layer : layer_times(whole, scenario.model.batch_per_gpu, scenario.model.precision, rates))
        costs.single_gpu_sequence_s += (layer.forward_s + layer.backward_s) / b;
    costs.hardware_flops_per_sequence = 3 * forward_flops + recompute_flops;

    // One rank's share of every layer: tensor parallelism splits the weights and the work t ways, context
    // parallelism the tokens c ways, expert parallelism the experts e ways (each rank runs its experts over
    // the tokens routed to them, as many as a dense layer's on average).
    ZooModel shard;
    std::vector<bool> expert_layer;
    for (const auto& layer : full) {
        const bool expert = config.moe() && is_mlp(layer);
        const double split = p.tensor * (expert ? p.expert : 1);
        shard.layers.push_back(ZooLayer{layer.name, layer.params / split, layer.forward_flops_per_sample / (p.tensor * p.context),
                                        layer.activations_per_sample / p.context / (p.sequence_parallel ? p.tensor : 1),
                                        shard_kernels(layer.kernels, p, split, expert ? p.expert : 1)});
        expert_layer.push_back(expert);
    }
    const auto work = layer_times(shard, scenario.model.batch_per_gpu, scenario.model.precision, rates);
    const int virtual_count = p.pipeline * llm.pipeline.virtual_stages;
    for (int j = 0; j < virtual_count; ++j) {
        const auto range = stage_blocks(llm.pipeline, config.layers, j, virtual_count);
        std::vector<size_t> indices;
        if (j == 0) indices.push_back(0);
        for (int block = range.first; block < range.last; ++block) {
            indices.push_back(static_cast<size_t>(1 + 2 * block));
            indices.push_back(static_cast<size_t>(2 + 2 * block));
        }
        if (j == virtual_count - 1) indices.push_back(full.size() - 1);
        std::vector<RankLayer> stage;
        for (size_t i : indices) {
            const auto& layer = work[i];
            double recompute_s = 0;
            const bool block = is_attention(full[i]) || is_mlp(full[i]);
            if (llm.recompute == Recompute::full && block) recompute_s = layer.forward_s;
            if (llm.recompute == Recompute::selective && is_attention(full[i]))
                recompute_s = attention_core_forward_s(shard.layers[i], b, element, rates);
            const bool tensor_collective = block && p.tensor > 1;
            const double parameters = shard.layers[i].params;
            stage.push_back(RankLayer{layer.name, layer.forward_s, layer.backward_s + recompute_s, parameters, parameters * element,
                                      parameters * reduce_element, expert_layer[i], tensor_collective, is_attention(full[i]),
                                      tensor_collective && llm.recompute == Recompute::full});
        }
        costs.virtual_stages.push_back(std::move(stage));
    }
    return costs;
}

}  // namespace dtsim
