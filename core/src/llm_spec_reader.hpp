#pragma once
// Reads and checks the LLM layout of a scenario (training.parallelism, pipeline, zero, recompute,
// global_batch; model.micro_batch and sequence_length; strategy kind fsdp).
#include "dtsim/config_node.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

/// Keys of `training` and `model` that make a scenario an LLM layout.
inline constexpr std::string_view kLlmTrainingKeys[] = {"parallelism", "pipeline", "zero", "recompute", "global_batch",
                                                        "expert_imbalance"};
inline constexpr std::string_view kLlmModelKeys[] = {"micro_batch", "sequence_length"};

/// Sets scenario.training.llm (and the micro-batch and microbatch counts it implies) when the document
/// has any LLM key or strategy kind fsdp; throws a located InputError on any inconsistency.
void read_llm(const ConfigNode& doc, Scenario& scenario);

}  // namespace dtsim
