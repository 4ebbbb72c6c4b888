#include "scenario_knobs.hpp"

#include <filesystem>

#include "dtsim/data_paths.hpp"
#include "dtsim/units.hpp"

namespace dtsim::gui {
namespace {

std::string strategy_choice(const Scenario& s) {
    const auto& strategy = s.training.strategy;
    if (s.training.llm && s.training.llm->fsdp) return to_string(StrategyKind::fsdp);
    if (strategy.kind == StrategyKind::allreduce) return to_string(strategy.kind) + "/" + to_string(strategy.algorithm);
    return to_string(strategy.kind);
}

std::string profile_choice(const Scenario& s) {
    if (!s.profile) return {};
    const std::filesystem::path file = s.profile->file;
    std::error_code ec;
    const bool shipped = file.extension() == ".json" &&
                         std::filesystem::equivalent(file.parent_path(), data_dir() / "profiles", ec);
    return shipped ? file.stem().string() : file.string();
}

LlmKnobs llm_knobs(const Scenario& s) {
    LlmKnobs k;
    if (!s.training.llm) return k;
    const auto& llm = *s.training.llm;
    k.tensor = llm.parallelism.tensor;
    k.pipeline = llm.parallelism.pipeline;
    k.data = std::to_string(llm.parallelism.data);
    k.expert = llm.parallelism.expert;
    k.context = llm.parallelism.context;
    k.sequence_parallel = llm.parallelism.sequence_parallel;
    k.schedule = std::string(kPipelineScheduleNames.name(llm.pipeline.schedule));
    k.virtual_stages = llm.pipeline.virtual_stages;
    k.microbatches = s.training.accumulation_steps;
    k.zero = llm.zero_stage;
    if (llm.fsdp) k.fsdp_sharding = std::string(kFsdpShardingNames.name(llm.fsdp_sharding));
    k.recompute = std::string(kRecomputeNames.name(llm.recompute));
    return k;
}

}  // namespace

WhatIfKnobs scenario_knobs(const Scenario& s) {
    WhatIfKnobs k;
    k.nodes = s.cluster.nodes;
    k.gpus_per_node = s.cluster.gpus_per_node;
    k.gpu = s.cluster.gpu.name;
    if (!s.cluster.nic.preset.empty()) k.nic.preset = s.cluster.nic.preset;
    k.nic.count = s.cluster.nics_per_node;
    if (s.cluster.nic.bytes_per_second > 0) k.nic.bandwidth = format_bytes_per_second(s.cluster.nic.bytes_per_second);
    if (s.model.zoo) k.model = s.model.name;
    k.profile = profile_choice(s);
    k.strategy = strategy_choice(s);
    k.servers = s.training.strategy.servers;
    k.sync = to_string(s.training.strategy.sync);
    k.local_aggregation = s.training.strategy.local_aggregation;
    k.compression = to_string(s.training.compression.kind);
    k.bucket = format_bytes(s.training.strategy.bucket_bytes);
    k.llm = llm_knobs(s);
    return k;
}

}  // namespace dtsim::gui
