#include "advise_configurations.hpp"

#include "advise_ranking.hpp"

namespace dtsim::cli {
namespace {

nlohmann::ordered_json configuration_json(const ConfigurationResult& r, bool pareto) {
    const auto& c = r.candidate.config;
    const auto& p = c.parallelism;
    nlohmann::ordered_json j{{"configuration", describe_plan(c)},
                             {"run_id", r.run_id ? nlohmann::ordered_json(*r.run_id) : nlohmann::ordered_json()},
                             {"tensor", p.tensor},
                             {"pipeline", p.pipeline},
                             {"context", p.context},
                             {"expert", p.expert},
                             {"data", p.data},
                             {"schedule", kPipelineScheduleNames.name(c.schedule)},
                             {"virtual_stages", c.virtual_stages},
                             {"micro_batch", c.micro_batch},
                             {"microbatches", c.microbatches},
                             {"zero", c.zero_stage},
                             {"fsdp", c.fsdp ? nlohmann::ordered_json(std::string(kFsdpShardingNames.name(*c.fsdp))) : nlohmann::ordered_json()},
                             {"recompute", kRecomputeNames.name(c.recompute)}};
    if (!r.candidate.simulated || !r.cost) {
        j["failure"] = r.candidate.failure;
        return j;
    }
    const auto& s = *r.candidate.simulated;
    j["iteration_time_s"] = s.iteration_time_s;
    j["tokens_per_s"] = s.tokens_per_s;
    j["mfu"] = s.model_flops_utilisation;
    j["memory_per_gpu_bytes"] = s.memory_per_gpu_bytes;
    const std::pair<Dimension, double> exposed[] = {{Dimension::tp, s.exposed_tp_s}, {Dimension::cp, s.exposed_cp_s}, {Dimension::ep, s.exposed_ep_s},
                                                    {Dimension::pp, s.exposed_pp_s}, {Dimension::dp, s.exposed_dp_s}};
    auto& exposed_s = j["exposed_s"] = nlohmann::ordered_json::object();
    for (const auto& [dimension, seconds] : exposed) exposed_s[std::string(kDimensionNames.name(dimension))] = seconds;
    j["time_to_train_s"] = r.cost->time_s;
    j["cost_usd"] = optional_number(r.cost->cloud_usd);
    j["owned_usd"] = optional_number(r.cost->owned_usd);
    j["owned_complete"] = r.cost->owned_complete();
    j["energy_kwh"] = r.cost->energy_kwh;
    j["pareto"] = pareto;
    return j;
}

}  // namespace

nlohmann::ordered_json optional_number(const std::optional<double>& value) { return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(); }

std::vector<nlohmann::ordered_json> configurations_json(const std::vector<std::vector<ConfigurationResult>>& options) {
    std::vector<RankedOption> points;  // every configuration of every option, for one frontier
    for (const auto& configurations : options)
        for (const auto& r : configurations)
            points.push_back({describe_plan(r.candidate.config), r.cost ? std::optional(r.cost->time_s) : std::nullopt,
                              r.cost ? r.cost->cloud_usd : std::nullopt});
    const auto frontier = pareto_frontier(points);
    std::vector<nlohmann::ordered_json> out;
    size_t point = 0;
    for (const auto& configurations : options) {
        auto& array = out.emplace_back(nlohmann::ordered_json::array());
        for (const auto& r : configurations) array.push_back(configuration_json(r, frontier[point++]));
    }
    return out;
}

}  // namespace dtsim::cli
