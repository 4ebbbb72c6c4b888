#include "whatif_overrides.hpp"

#include "dtsim/scenario.hpp"

namespace dtsim::gui {
namespace {

const char* yaml_bool(bool value) { return value ? "true" : "false"; }

std::string strategy_map(const WhatIfKnobs& k) {
    const auto slash = k.strategy->find('/');
    std::string map = "{kind: " + k.strategy->substr(0, slash);
    if (slash != std::string::npos) map += ", algorithm: " + k.strategy->substr(slash + 1);
    const bool server = k.strategy->rfind(kStrategyKindNames.name(StrategyKind::parameter_server), 0) == 0;
    if (server && k.servers) map += ", servers: " + std::to_string(*k.servers);
    if (server && k.sync) map += ", sync: " + *k.sync;
    if (server && k.local_aggregation) map += std::string(", local_aggregation: ") + yaml_bool(*k.local_aggregation);
    if (*k.strategy == kStrategyKindNames.name(StrategyKind::fsdp) && k.llm.fsdp_sharding) map += ", sharding: " + *k.llm.fsdp_sharding;
    if (k.bucket) map += ", bucket: " + *k.bucket;
    return map + "}";
}

}  // namespace

std::vector<std::string> whatif_overrides(const WhatIfKnobs& k, const std::string& scenario_file) {
    std::vector<std::string> out;
    if (k.nodes && k.sweep_nodes.empty()) out.push_back("cluster.nodes=" + std::to_string(*k.nodes));
    if (k.gpus_per_node) out.push_back("cluster.gpus_per_node=" + std::to_string(*k.gpus_per_node));
    if (k.gpu) out.push_back("cluster.gpu=" + *k.gpu);
    for (auto& o : nic_overrides(k.nic, scenario_file)) out.push_back(std::move(o));
    if (auto model = model_override(k.model, scenario_file)) out.push_back(std::move(*model));
    if (k.profile) out.push_back("profile=" + (k.profile->empty() ? std::string("null") : *k.profile));
    if (k.strategy) {
        // A new kind replaces the whole strategy: keys of the old kind would not be valid for it.
        out.push_back("training.strategy=" + strategy_map(k));
    } else {
        if (k.servers) out.push_back("training.strategy.servers=" + std::to_string(*k.servers));
        if (k.sync) out.push_back("training.strategy.sync=" + *k.sync);
        if (k.local_aggregation)
            out.push_back(std::string("training.strategy.local_aggregation=") + yaml_bool(*k.local_aggregation));
        if (k.bucket) out.push_back("training.strategy.bucket=" + *k.bucket);
        // FSDP's sharding alone switches the scenario's strategy to FSDP, keeping its other keys.
        if (k.llm.fsdp_sharding)
            out.insert(out.end(), {"training.strategy.kind=" + std::string(kStrategyKindNames.name(StrategyKind::fsdp)),
                                   "training.strategy.sharding=" + *k.llm.fsdp_sharding});
    }
    if (k.compression) out.push_back("training.compression={kind: " + *k.compression + "}");
    if (k.straggler_factor)
        out.push_back("training.stragglers={slowdown: [{ranks: [0], factor: " + std::to_string(*k.straggler_factor) + "}]}");
    for (auto& o : llm_overrides(k.llm)) out.push_back(std::move(o));
    return out;
}

std::vector<std::string> whatif_arguments(const WhatIfKnobs& knobs, const std::string& scenario_file, const std::string& db_path) {
    std::vector<std::string> args{knobs.sweep_nodes.empty() ? "simulate" : "sweep", scenario_file, "--db", db_path};
    if (knobs.sweep_nodes.empty()) {
        args.push_back("--quiet");
    } else {
        std::string values;
        for (int n : knobs.sweep_nodes) values += (values.empty() ? "" : ",") + std::to_string(n);
        // The panel's progress bar reads the sweep's "[done/total]" lines from stderr, a pipe here.
        args.insert(args.end(), {"--vary", "cluster.nodes=" + values, "--progress-lines"});
    }
    for (const auto& o : whatif_overrides(knobs, scenario_file)) args.insert(args.end(), {"--set", o});
    return args;
}

}  // namespace dtsim::gui
