#pragma once
// The order in which one pipeline stage runs its forward and backward passes under each schedule
// (docs/llm.md, "Pipeline schedules"). Simulated and measured runs both follow it.
#include <vector>

#include "dtsim/parallelism.hpp"

namespace dtsim {

enum class Pass { forward, backward };

struct PipelineOp {
    Pass pass = Pass::forward;
    int microbatch = 0;
    int chunk = 0;  // the stage's model chunk (interleaved-1f1b); 0 otherwise
    bool operator==(const PipelineOp&) const = default;
};

/// Stage `stage` of `stages`, `microbatches` per iteration, `chunks` model chunks per stage:
/// gpipe: every forward, then every backward;
/// 1f1b: min(stages - stage - 1, m) forwards, then one forward and one backward alternately, then the
///   remaining backwards (Megatron-LM's schedule without interleaving);
/// interleaved-1f1b: Megatron-LM's interleaved schedule: forwards go through the chunks in groups of
///   `stages` microbatches, backwards through them in reverse; (stages - stage - 1)·2 + (chunks - 1)·stages
///   warm-up forwards (all of them when microbatches == stages).
std::vector<PipelineOp> pipeline_order(PipelineSchedule schedule, int stages, int stage, int microbatches, int chunks);

}  // namespace dtsim
