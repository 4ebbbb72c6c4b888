#include "dtsim/memory_model.hpp"

#include <algorithm>
#include <cstdio>

#include "dtsim/llm_costs.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

ModelStates zero_model_states(double parameters, int shards, int stage, double weight_bytes, double gradient_bytes,
                              double optimizer_bytes) {
    const double n = shards;
    return ModelStates{parameters * weight_bytes / (stage >= 3 ? n : 1), parameters * gradient_bytes / (stage >= 2 ? n : 1),
                       parameters * optimizer_bytes / (stage >= 1 ? n : 1)};
}

double layer_activation_bytes(const TransformerConfig& config, double sequence, double micro_batch, int tensor,
                              bool sequence_parallel, Recompute recompute) {
    const double h = config.hidden, sbh = sequence * micro_batch * h;
    const double t = tensor;
    if (recompute == Recompute::full) return 2 * sbh / (sequence_parallel ? t : 1);
    // In units of s·b·h, 16-bit elements: what each tensor-parallel rank holds whole (the normalisations' inputs,
    // the inputs of the first attention and MLP products, GPT's dropout masks after each block) and what it holds
    // a t-th of (queries, keys and values, the output product's input, the MLP's intermediates, the scores).
    const bool gpt = config.architecture == "gpt";
    const double kv = static_cast<double>(config.kv_heads) / config.heads, f = config.ffn / h, experts = config.top_k;
    const double scores = recompute == Recompute::selective ? 0 : (gpt ? 5 : 2) * config.heads * sequence / h;
    const double whole = gpt ? 4 + 2 + 1 + 2 + 1 : 4 + 2 + 2;
    const double mlp = gpt ? 2 * f + 2 * f : (2 * f + 2 * f + 2 * f) * experts;  // GeLU's input and output; SwiGLU's gate, up and output
    const double split = 2 + 4 * kv + 2 + mlp + scores;
    return sbh * (sequence_parallel ? (whole + split) / t : whole + split / t);
}

namespace {

// How many microbatches' activations of the whole stage `stage` holds at most: all of them in GPipe; in
// 1F1B those it has run forward before its first backward (Megatron-LM's warm-up, p − r − 1, and one);
// interleaved, its warm-up chunks 2(p − r − 1) + (v − 1)p and one, each 1/v of the stage, so the first
// stage holds p(1 + (p − 1)/(pv)) stages' worth: Korthikanti et al. 2022 §4.2.3's L(1 + (p − 1)/(pv)) layers.
double microbatches_held(const LlmSpec& llm, int stage, int microbatches) {
    const int stages = llm.parallelism.pipeline;
    switch (llm.pipeline.schedule) {
        case PipelineSchedule::gpipe: return microbatches;
        case PipelineSchedule::one_f_one_b: return std::min(stages - stage, microbatches);
        case PipelineSchedule::interleaved: {
            const int v = llm.pipeline.virtual_stages;
            const int chunks = 2 * (stages - stage - 1) + (v - 1) * stages + 1;
            return std::min(chunks, microbatches * v) / static_cast<double>(v);
        }
    }
    return microbatches;
}

MemoryEstimate llm_memory(const Scenario& scenario) {
    const auto& llm = *scenario.training.llm;
    const auto& config = *scenario.model.zoo->transformer;
    const auto& p = llm.parallelism;
    // FlashAttention keeps no a·s² tensors: what it stores is what selective recomputation stores.
    const bool no_scores = scenario.model.attention == Attention::flash && llm.recompute == Recompute::none;
    const Recompute stored_activations = no_scores ? Recompute::selective : llm.recompute;
    const bool mixed = is_mixed_precision(scenario.model.precision);
    const double element = bytes_per_element(scenario.model.precision);
    const double gradient_element = llm.gradient_element_bytes(scenario.model.precision);
    const double optimizer = scenario.training.optimizer_or_adam().state_bytes_per_parameter(mixed);
    const auto costs = llm_costs(scenario, ComputeRates{1, 1, 0, 1});
    MemoryEstimate peak;
    peak.capacity = scenario.cluster.gpu.memory_bytes;
    for (int stage = 0; stage < p.pipeline; ++stage) {
        const auto [dense, expert, blocks] = costs.stage_contents(stage, p.pipeline);
        const int shards = llm.shard_ranks(p.data * p.context, scenario.cluster.gpus_per_node);
        auto states = zero_model_states(dense, shards, llm.zero_stage, element, gradient_element, optimizer);
        const auto expert_states = zero_model_states(expert, shards / p.expert, llm.zero_stage, element, gradient_element, optimizer);
        states.weights += expert_states.weights;
        states.gradients += expert_states.gradients;
        states.optimizer += expert_states.optimizer;
        const double per_layer = layer_activation_bytes(config, llm.sequence_length / static_cast<double>(p.context),
                                                        scenario.model.batch_per_gpu, p.tensor, p.sequence_parallel, stored_activations);
        const double activations = per_layer * blocks * microbatches_held(llm, stage, scenario.training.accumulation_steps);
        MemoryEstimate estimate{states, activations, kFrameworkReserveBytes, peak.capacity, stage};
        if (stage == 0 || estimate.peak() > peak.peak()) peak = estimate;
    }
    return peak;
}

// Plain data parallelism: every GPU holds the whole model, its gradients, the optimizer's states and one
// micro-batch's layer outputs.
MemoryEstimate replicated_memory(const Scenario& scenario) {
    const auto& model = scenario.model;
    const double element = bytes_per_element(model.precision);
    const bool mixed = is_mixed_precision(model.precision);
    const double parameters = model.zoo ? model.zoo->total_parameters() : model.direct.gradient_bytes / element;
    double activations = 0;
    if (model.zoo)
        for (const auto& layer : model.zoo->layers) activations += layer.activations_per_sample * model.batch_per_gpu * element;
    MemoryEstimate estimate;
    estimate.states = zero_model_states(parameters, 1, 0, element, element, scenario.training.optimizer_or_adam().state_bytes_per_parameter(mixed));
    estimate.activations = activations;
    estimate.capacity = scenario.cluster.gpu.memory_bytes;
    return estimate;
}

}  // namespace

MemoryEstimate estimate_memory(const Scenario& scenario) {
    return scenario.training.llm ? llm_memory(scenario) : replicated_memory(scenario);
}

std::string describe_fit(double peak_bytes, double capacity_bytes) {
    char text[96];
    if (peak_bytes <= capacity_bytes)
        std::snprintf(text, sizeof text, "fits: %.1f of %.1f GB", peak_bytes / 1e9, capacity_bytes / 1e9);
    else
        std::snprintf(text, sizeof text, "does not fit: needs %.1f GB of %.1f GB", peak_bytes / 1e9, capacity_bytes / 1e9);
    return text;
}

}  // namespace dtsim
