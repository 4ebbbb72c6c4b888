#pragma once
// What one rank of a parallel layout computes and sends per microbatch: its stage's layers with the
// tensor, context and expert splits applied, and the sizes of its tensor, pipeline, context and expert
// messages (docs/llm.md, "Costs"). Part of the cost model.
#include <string>
#include <vector>

#include "dtsim/compute_model.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/parallelism.hpp"

namespace dtsim {

struct Scenario;

/// One zoo layer as one rank runs it for one microbatch.
struct RankLayer {
    std::string name;
    double forward_s = 0;
    double backward_s = 0;       // with what recomputation adds
    double parameters = 0;       // this rank's share (tensor and expert splits), before ZeRO sharding
    double parameter_bytes = 0;  // parameters × the training precision's bytes: what a ZeRO-3/FSDP gather moves
    double gradient_bytes = 0;   // parameters × the gradient reduction's bytes (LlmSpec::reduce_precision)
    bool expert = false;         // an MoE layer: its gradients are reduced over the expert-data group
    bool tensor_collective = false;  // attention and MLP blocks end each pass with a tensor-parallel collective
    bool attention = false;      // context parallelism exchanges keys and values here
    bool repeats_tensor_collective = false;  // full recomputation reruns the forward's collective in backward
};

struct LlmCosts {
    /// Per virtual stage (stage + chunk · stages), its layers in forward order.
    std::vector<std::vector<RankLayer>> virtual_stages;
    double tensor_bytes = 0;     // the activation a tensor-parallel collective reduces: b·(s/c)·h elements
    double pipeline_bytes = 0;   // what a rank sends to the next stage: b·(s/c)·h elements, split over t
    double alltoall_bytes = 0;   // an MoE dispatch (or combine) per rank: its tokens × top-k × h elements
    double context_bytes = 0;    // keys and values of a rank's sequence share, per attention layer
    double optimizer_bytes_per_parameter = 0;  // memory traffic of one optimizer step per parameter
    double memory_bytes_per_second = 0;
    double model_flops_per_sequence = 0;     // forward + backward (3 × forward), without recomputation
    double hardware_flops_per_sequence = 0;  // with recomputation
    int tokens_per_sequence = 0;
    /// One GPU running every layer unsplit, forward and backward of one sequence without recomputation:
    /// the single-GPU reference of speedup and scaling efficiency (docs/llm.md, "Outputs").
    double single_gpu_sequence_s = 0;
    /// What one pipeline stage holds over all its chunks (`stages` stages).
    struct StageContents {
        double dense_parameters = 0;
        double expert_parameters = 0;
        int blocks = 0;  // transformer blocks (one attention layer each)
    };
    StageContents stage_contents(int stage, int stages) const;
    /// The optimizer step over `parameters` this rank updates: memory-bound.
    double optimizer_s(double parameters) const { return parameters * optimizer_bytes_per_parameter / memory_bytes_per_second; }
};

/// Blocks `first` to `last` (exclusive) of virtual stage `index` of `count`: an equal share each (of the
/// blocks plus the embeddings and the loss where they count as layers), or the pipeline's first and last
/// stage layers and an equal share of the rest for the others; the embeddings go with the first, the
/// output head with the last.
struct BlockRange {
    int first = 0;
    int last = 0;
};
BlockRange stage_blocks(const PipelineSpec& pipeline, int blocks, int index, int count);

/// The scenario's transformer at its sequence length, in zoo layers.
std::vector<ZooLayer> scenario_transformer_layers(const Scenario& scenario);

LlmCosts llm_costs(const Scenario& scenario, const ComputeRates& rates);

}  // namespace dtsim
