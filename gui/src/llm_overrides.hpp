#pragma once
// The what-if panel's large-model knobs (docs/llm.md, "Scenario") as `dtsim simulate --set` overrides:
// only the knobs a user turned on, so a plain data-parallel what-if stays as it was. Qt-free.
#include <optional>
#include <string>
#include <vector>

namespace dtsim::gui {

struct LlmKnobs {
    std::optional<int> tensor;
    std::optional<int> pipeline;
    std::optional<std::string> data;  // a degree, or "auto"
    std::optional<int> expert;
    std::optional<int> context;
    std::optional<bool> sequence_parallel;
    std::optional<std::string> schedule;       // kPipelineScheduleNames
    std::optional<int> virtual_stages;
    std::optional<int> microbatches;
    std::optional<int> global_batch;           // sequences per iteration, instead of microbatches
    std::optional<int> zero;                   // DeepSpeed ZeRO stage 0-3
    std::optional<std::string> fsdp_sharding;  // kFsdpShardingNames; trains with FSDP (whatif_overrides.cpp)
    std::optional<std::string> recompute;      // kRecomputeNames
};

/// The overrides of the layout, schedule, ZeRO and recomputation knobs; FSDP's sharding belongs to the
/// strategy, so whatif_overrides emits it.
std::vector<std::string> llm_overrides(const LlmKnobs& knobs);

}  // namespace dtsim::gui
