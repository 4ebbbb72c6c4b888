#pragma once
// What one GPU holds at its peak: weights, gradients and optimizer states as ZeRO or FSDP shard them,
// the activations the pipeline schedule keeps (with recomputation), and a fixed framework reserve
// (docs/llm.md, "Memory").
#include <string>

#include "dtsim/model_zoo.hpp"
#include "dtsim/parallelism.hpp"

namespace dtsim {

struct Scenario;

/// CUDA context, NCCL buffers and allocator fragmentation: a fixed share of every GPU the job cannot use
/// for tensors (docs/llm.md, "Memory" gives the basis).
inline constexpr double kFrameworkReserveBytes = 2e9;

/// Model states per GPU for `parameters` parameters of which this GPU keeps a replica, shared by
/// `shards` data-parallel ranks at ZeRO `stage` (0-3): weights of `weight_bytes` and gradients of
/// `gradient_bytes` per parameter, and `optimizer_bytes` (the ZeRO paper's K) of optimizer state.
struct ModelStates {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double total() const { return weights + gradients + optimizer; }
};
ModelStates zero_model_states(double parameters, int shards, int stage, double weight_bytes, double gradient_bytes,
                              double optimizer_bytes);

/// Activations of one transformer layer and one microbatch, in bytes, counted as Korthikanti et al. 2022 count
/// them (16-bit activations, Table 2), tensor by tensor for the layer's architecture. GPT (LayerNorm, GeLU MLP
/// of f, dropout): s·b·h·(34 + 5·a·s/h) at f = 4h; with tensor parallelism s·b·h·(10 + 24/t + 5·a·s/(h·t)); with
/// sequence parallelism too, s·b·h/t·(34 + 5·a·s/h). Llama (RMSNorm, SwiGLU of f, grouped-query attention of kv
/// heads, no dropout): s·b·h·(8 + (4 + 4·kv/a + 6·f/h·k + 2·a·s/h)/t), k the experts per token. Selective
/// recomputation drops the a·s² scores; full recomputation keeps only the layer's input, 2·s·b·h (divided by t
/// with sequence parallelism).
double layer_activation_bytes(const TransformerConfig& config, double sequence, double micro_batch, int tensor,
                              bool sequence_parallel, Recompute recompute);

struct MemoryEstimate {
    ModelStates states;
    double activations = 0;
    double reserve = kFrameworkReserveBytes;
    double capacity = 0;  // the GPU preset's memory
    int stage = 0;        // the pipeline stage with the peak
    double peak() const { return states.total() + activations + reserve; }
    bool fits() const { return peak() <= capacity; }
};

/// The peak over the pipeline stages of one GPU's memory for a scenario: for a data-parallel scenario
/// without an LLM layout, the whole model replicated and one batch's activations (zoo layer outputs).
MemoryEstimate estimate_memory(const Scenario& scenario);

/// "fits: 61.2 of 80.0 GB" or "does not fit: needs 93.1 GB of 80.0 GB".
std::string describe_fit(double peak_bytes, double capacity_bytes);

}  // namespace dtsim
