#pragma once
// The configurations `dtsim plan` searches for one model, global batch and cluster: tensor, pipeline,
// context, expert and data degrees, the pipeline schedule and its virtual stages, the micro-batch size
// (the microbatch count follows from the global batch), the sharding (a ZeRO stage, or FSDP's) and activation
// recomputation (docs/plan.md, "Search space"). Each becomes `--set` overrides of the scenario, which loads it as
// `simulate` would: what the loader refuses is not a configuration.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/parallelism.hpp"

namespace dtsim {

struct PlanConfig {
    ParallelismSpec parallelism;  // data resolved; sequence parallelism wherever tensor > 1
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    int virtual_stages = 1;
    bool embedding_and_loss_in_split = false;  // the pipeline splits the layers + 2 (pipeline.embedding_in_split, loss_in_split)
    int micro_batch = 1;    // sequences per microbatch
    int microbatches = 1;   // per iteration: global batch / (micro_batch · data)
    int zero_stage = 0;                 // with FSDP, the stage its sharding equals (full and hybrid 3, grad-op 2)
    std::optional<FsdpSharding> fsdp;  // none: DeepSpeed ZeRO at zero_stage
    Recompute recompute = Recompute::none;
};

/// The search dimensions a user may restrict (`dtsim plan --search KEY=V1,V2`), spelled once.
enum class PlanKey { tensor, pipeline, context, expert, schedule, virtual_stages, micro_batch, zero, fsdp, recompute };
inline constexpr auto kPlanKeyNames = make_name_table(
    std::pair{PlanKey::tensor, "tensor"}, std::pair{PlanKey::pipeline, "pipeline"}, std::pair{PlanKey::context, "context"},
    std::pair{PlanKey::expert, "expert"}, std::pair{PlanKey::schedule, "schedule"},
    std::pair{PlanKey::virtual_stages, "virtual_stages"}, std::pair{PlanKey::micro_batch, "micro_batch"},
    std::pair{PlanKey::zero, "zero"}, std::pair{PlanKey::fsdp, "fsdp"}, std::pair{PlanKey::recompute, "recompute"});

/// The `fsdp` key's value for DeepSpeed ZeRO (no FSDP), beside kFsdpShardingNames's.
inline constexpr std::string_view kNoFsdp = "none";

/// What bounds the search: the job, and the values each restricted key may take (as written).
struct PlanSpaceInput {
    int gpus = 1;
    int gpus_per_node = 1;
    long long global_batch = 1;  // sequences per iteration
    int layers = 1;              // transformer blocks
    int experts = 1;             // 1 for a dense model
    int max_context = 8;
    std::map<PlanKey, std::vector<std::string>> allowed;
};

/// Every configuration of the space, in a fixed order. Degrees are divisors of the GPUs they split:
/// tensor within a node, pipeline (× virtual stages) dividing the layers, or else the layers and the embeddings
/// and loss counted as two more where every stage keeps a layer (Llama 3 405B: 126 + 2 over 16), context up to `max_context`,
/// expert dividing the experts and the data degree; micro-batch sizes divide global batch / data. Shardings:
/// ZeRO 0-3, and FSDP's hybrid sharding where it differs from full sharding (a node's GPUs of a tensor group
/// are more than one rank and fewer than the data group); FSDP's full and grad-op only when the `fsdp` key
/// names them (they are ZeRO-3 and ZeRO-2 to the simulator). An FSDP sharding counts as the ZeRO stage it
/// equals for the `zero` key's restriction.
std::vector<PlanConfig> plan_space(const PlanSpaceInput& input);

/// Parses `--search KEY=V1,V2`: the key must be a PlanKey and the values non-empty. Throws InputError.
std::pair<PlanKey, std::vector<std::string>> parse_search_option(const std::string& text);

/// The scenario overrides that give `config` (the model's micro-batch under `micro_batch_key`).
std::vector<std::string> plan_overrides(const PlanConfig& config, long long global_batch, const std::string& micro_batch_key);

/// "tp8 sp pp4 dp16 1f1b mb1×16 zero1 selective": degrees above 1, schedule with a pipeline, micro-batch ×
/// microbatches, ZeRO stage (or "fsdp hybrid"), recomputation.
std::string describe_plan(const PlanConfig& config);

}  // namespace dtsim
