#pragma once
// How a large model is split over the GPUs: tensor, context, expert, data and pipeline parallelism, the
// pipeline schedule, ZeRO/FSDP sharding, the optimizer and activation recomputation (docs/llm.md).
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "dtsim/name_table.hpp"
#include "dtsim/precision.hpp"

namespace dtsim {

/// A dimension of the parallel layout, and of the communication it causes.
enum class Dimension { tp, cp, ep, dp, pp };
inline constexpr auto kDimensionNames = make_name_table(std::pair{Dimension::tp, "tp"}, std::pair{Dimension::cp, "cp"},
                                                        std::pair{Dimension::ep, "ep"}, std::pair{Dimension::dp, "dp"},
                                                        std::pair{Dimension::pp, "pp"});
inline constexpr int kDimensions = 5;

enum class PipelineSchedule { gpipe, one_f_one_b, interleaved };
inline constexpr auto kPipelineScheduleNames =
    make_name_table(std::pair{PipelineSchedule::gpipe, "gpipe"}, std::pair{PipelineSchedule::one_f_one_b, "1f1b"},
                    std::pair{PipelineSchedule::interleaved, "interleaved-1f1b"});

/// PyTorch FSDP's sharding strategies: FULL_SHARD, SHARD_GRAD_OP, HYBRID_SHARD.
enum class FsdpSharding { full, grad_op, hybrid };
inline constexpr auto kFsdpShardingNames = make_name_table(
    std::pair{FsdpSharding::full, "full"}, std::pair{FsdpSharding::grad_op, "grad-op"}, std::pair{FsdpSharding::hybrid, "hybrid"});

enum class OptimizerKind { adam, sgd };
inline constexpr auto kOptimizerKindNames =
    make_name_table(std::pair{OptimizerKind::adam, "adam"}, std::pair{OptimizerKind::sgd, "sgd"});

/// Megatron's activation recomputation: none; selective (the attention core: softmax, dropout, QK^T and
/// the context product); full (every layer's forward again in backward, only its input kept).
enum class Recompute { none, selective, full };
inline constexpr auto kRecomputeNames = make_name_table(std::pair{Recompute::none, "none"},
                                                        std::pair{Recompute::selective, "selective"},
                                                        std::pair{Recompute::full, "full"});

struct ParallelismSpec {
    int tensor = 1;
    int pipeline = 1;
    int data = 1;     // resolved: GPUs / (tensor · pipeline · context) where the scenario says auto
    int expert = 1;   // experts are split over `expert` ranks of the data-parallel group (Megatron's EP)
    int context = 1;
    bool sequence_parallel = false;
    /// Innermost first: rank = Σ coordinate(d) · stride(d), strides growing in this order.
    std::array<Dimension, kDimensions> order{Dimension::tp, Dimension::cp, Dimension::ep, Dimension::dp, Dimension::pp};
    int model_parallel() const { return tensor * pipeline * context; }
};

struct PipelineSpec {
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    int virtual_stages = 1;  // model chunks per stage (interleaved-1f1b)
    /// Layers of the first and last stage where they differ from the others' equal share (Megatron-LM's
    /// decoder_first/last_pipeline_num_layers; Llama 3 405B takes one off each, for the embeddings and the
    /// output head); 0: an equal share.
    int first_stage_layers = 0;
    int last_stage_layers = 0;
    /// The embeddings (the loss and output head) count as one layer in the split of the layers over the
    /// P·v model chunks (Megatron-LM's account_for_embedding/loss_in_pipeline_split), so the first (last)
    /// chunk holds one transformer layer fewer. Llama 3 405B: 126 + 2 = 128 slots over 16 × 8 chunks, "the
    /// first model chunk on the first stage has only the embedding".
    bool embedding_in_split = false;
    bool loss_in_split = false;
    /// The slots beside the transformer blocks in the split: the embeddings and the loss where they count.
    int counted_slots() const { return (embedding_in_split ? 1 : 0) + (loss_in_split ? 1 : 0); }
};

struct OptimizerSpec {
    OptimizerKind kind = OptimizerKind::adam;
    bool fp32_master_weights = true;  // mixed precision keeps an fp32 copy of the weights
    /// Optimizer state per parameter, in bytes: Adam's fp32 momentum and variance (8), plus the fp32 master
    /// copy (4) in mixed precision; SGD with momentum keeps one fp32 buffer (4). The ZeRO paper's K.
    double state_bytes_per_parameter(bool mixed_precision) const;
    /// Memory traffic of one step per parameter: it reads and writes its states, reads the gradient, and
    /// reads and writes the weights it updates: the fp32 master copy (then writes the working copy) in
    /// mixed precision, else the weights themselves.
    /// `gradient_bytes`: a gradient element's bytes (the training precision's, or the reduction's: reduce_precision).
    double step_bytes_per_parameter(Precision precision, double gradient_bytes) const;
};

/// The layout, schedule and sharding of a large-model job; absent in a plain data-parallel scenario.
struct LlmSpec {
    ParallelismSpec parallelism;
    PipelineSpec pipeline;
    int zero_stage = 0;        // DeepSpeed ZeRO 0-3; FSDP sets the equivalent stage
    bool fsdp = false;         // training.strategy.kind: fsdp
    FsdpSharding fsdp_sharding = FsdpSharding::full;
    bool prefetch = true;      // ZeRO-3/FSDP: gather the next layer's parameters during this one's compute
    /// The data-parallel gradient reduction's element and the gradient buffers' (PyTorch FSDP's reduce_dtype,
    /// Megatron-LM's grad_reduce_in_fp32); unset: the model's precision.
    std::optional<Precision> reduce_precision;
    /// A gradient element's bytes, reduced and buffered, for a model trained in `precision`.
    double gradient_element_bytes(Precision precision) const { return bytes_per_element(reduce_precision.value_or(precision)); }
    Recompute recompute = Recompute::none;
    int sequence_length = 0;   // tokens per sequence (the zoo's unless the scenario sets model.sequence_length)
    double expert_imbalance = 0;  // MoE: coefficient of variation of the tokens an expert rank receives
    /// Whether parameters (and not only gradients and optimizer states) are sharded over the data group.
    bool shards_parameters() const { return zero_stage >= 3; }
    bool hybrid_sharding() const { return fsdp && fsdp_sharding == FsdpSharding::hybrid; }
    /// Ranks that shard the model states among `data_ranks` (the data group, context included): all of them,
    /// or with hybrid FSDP a node's GPUs of one tensor group, the data group being replicas of that shard.
    int shard_ranks(int data_ranks, int gpus_per_node) const {
        return hybrid_sharding() ? std::clamp(gpus_per_node / parallelism.tensor, 1, data_ranks) : data_ranks;
    }
};

}  // namespace dtsim
