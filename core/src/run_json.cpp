#include "dtsim/run_json.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "dtsim/input_error.hpp"

namespace dtsim {

nlohmann::ordered_json summary_to_json(const RunSummary& s) {
    nlohmann::ordered_json j;
    j["gpus"] = s.gpus;
    j["nodes"] = s.nodes;
    j["gpus_per_node"] = s.gpus_per_node;
    j["batch_per_gpu"] = s.batch_per_gpu;
    j["iteration_time_s"] = s.iteration_time_s;
    if (s.uncertainty_draws > 0) {
        j["uncertainty_draws"] = s.uncertainty_draws;
        j["iteration_time_low_s"] = s.iteration_time_low_s;
        j["iteration_time_high_s"] = s.iteration_time_high_s;
    }
    j["samples_per_s"] = s.samples_per_s;
    j["single_gpu_iteration_time_s"] = s.single_gpu_iteration_time_s;
    j["speedup"] = s.speedup;
    j["scaling_efficiency"] = s.scaling_efficiency;
    j["compute_time_s"] = s.compute_time_s;
    j["comm_time_s"] = s.comm_time_s;
    j["exposed_comm_time_s"] = s.exposed_comm_time_s;
    j["comm_share"] = s.comm_share;
    j["wait_time_s"] = s.wait_time_s;
    j["wait_share"] = s.wait_share;
    j["gradient_bytes"] = s.gradient_bytes;
    j["worker_samples_per_s_min"] = s.worker_samples_per_s_min;
    j["worker_samples_per_s_max"] = s.worker_samples_per_s_max;
    j["staleness_mean"] = s.staleness_mean;
    j["staleness_p50"] = s.staleness_p50;
    j["staleness_p99"] = s.staleness_p99;
    j["staleness_max"] = s.staleness_max;
    j["staleness_clocks_mean"] = s.staleness_clocks_mean;
    j["staleness_clocks_max"] = s.staleness_clocks_max;
    j["server_link_utilisation"] = s.server_link_utilisation;
    j["lost_work_s"] = s.lost_work_s;
    j["restart_s"] = s.restart_s;
    j["checkpoint_s"] = s.checkpoint_s;
    j["tokens_per_s"] = s.tokens_per_s;
    j["model_flops_utilisation"] = s.model_flops_utilisation;
    j["hardware_flops_utilisation"] = s.hardware_flops_utilisation;
    j["tflops_per_gpu"] = s.tflops_per_gpu;
    j["bubble_fraction"] = s.bubble_fraction;
    j["exposed_tp_s"] = s.exposed_tp_s;
    j["exposed_cp_s"] = s.exposed_cp_s;
    j["exposed_pp_s"] = s.exposed_pp_s;
    j["exposed_dp_s"] = s.exposed_dp_s;
    j["exposed_ep_s"] = s.exposed_ep_s;
    j["memory_per_gpu_bytes"] = s.memory_per_gpu_bytes;
    j["memory_capacity_bytes"] = s.memory_capacity_bytes;
    j["fits"] = s.fits;
    return j;
}

RunSummary summary_from_json(const nlohmann::json& j) {
    RunSummary s;
    s.gpus = j.at("gpus").get<int>();
    s.nodes = j.value("nodes", 0);
    s.gpus_per_node = j.value("gpus_per_node", 0);
    s.batch_per_gpu = j.value("batch_per_gpu", 0);
    s.iteration_time_s = j.at("iteration_time_s").get<double>();
    s.uncertainty_draws = j.value("uncertainty_draws", 0);
    s.iteration_time_low_s = j.value("iteration_time_low_s", 0.0);
    s.iteration_time_high_s = j.value("iteration_time_high_s", 0.0);
    s.samples_per_s = j.at("samples_per_s").get<double>();
    s.single_gpu_iteration_time_s = j.value("single_gpu_iteration_time_s", 0.0);
    s.speedup = j.at("speedup").get<double>();
    s.scaling_efficiency = j.at("scaling_efficiency").get<double>();
    s.compute_time_s = j.at("compute_time_s").get<double>();
    s.comm_time_s = j.at("comm_time_s").get<double>();
    s.exposed_comm_time_s = j.at("exposed_comm_time_s").get<double>();
    s.comm_share = j.value("comm_share", 0.0);
    s.gradient_bytes = j.value("gradient_bytes", 0.0);
    // Absent in runs stored before these fields existed.
    s.wait_time_s = j.value("wait_time_s", 0.0);
    s.wait_share = j.value("wait_share", 0.0);
    s.worker_samples_per_s_min = j.value("worker_samples_per_s_min", 0.0);
    s.worker_samples_per_s_max = j.value("worker_samples_per_s_max", 0.0);
    s.staleness_mean = j.value("staleness_mean", 0.0);
    s.staleness_p50 = j.value("staleness_p50", 0.0);
    s.staleness_p99 = j.value("staleness_p99", 0.0);
    s.staleness_max = j.value("staleness_max", 0.0);
    s.staleness_clocks_mean = j.value("staleness_clocks_mean", 0.0);  // absent before clocks were reported
    s.staleness_clocks_max = j.value("staleness_clocks_max", 0.0);
    s.server_link_utilisation = j.value("server_link_utilisation", 0.0);
    s.lost_work_s = j.value("lost_work_s", 0.0);
    s.restart_s = j.value("restart_s", 0.0);
    s.checkpoint_s = j.value("checkpoint_s", 0.0);
    s.tokens_per_s = j.value("tokens_per_s", 0.0);
    s.model_flops_utilisation = j.value("model_flops_utilisation", 0.0);
    s.hardware_flops_utilisation = j.value("hardware_flops_utilisation", 0.0);
    s.tflops_per_gpu = j.value("tflops_per_gpu", 0.0);
    s.bubble_fraction = j.value("bubble_fraction", 0.0);
    s.exposed_tp_s = j.value("exposed_tp_s", 0.0);
    s.exposed_cp_s = j.value("exposed_cp_s", 0.0);
    s.exposed_pp_s = j.value("exposed_pp_s", 0.0);
    s.exposed_dp_s = j.value("exposed_dp_s", 0.0);
    s.exposed_ep_s = j.value("exposed_ep_s", 0.0);
    // Runs from before the memory model have no estimate (capacity 0): they read as fitting.
    s.memory_per_gpu_bytes = j.value("memory_per_gpu_bytes", 0.0);
    s.memory_capacity_bytes = j.value("memory_capacity_bytes", 0.0);
    s.fits = j.value("fits", true);
    return s;
}

nlohmann::ordered_json run_summary_json(const Run& run) {
    nlohmann::ordered_json j;
    j["kind"] = to_string(run.kind);
    j["scenario"] = run.scenario_name;
    j["scenario_hash"] = run.scenario_hash;
    j["strategy"] = run.strategy;
    j["label"] = run.label;
    j["overrides"] = run.overrides;
    const auto summary = summary_to_json(run.summary);
    for (auto it = summary.begin(); it != summary.end(); ++it) j[it.key()] = it.value();
    auto& iterations = j["iterations"] = nlohmann::ordered_json::array();
    for (const auto& it : run.iterations) iterations.push_back({{"index", it.index}, {"time_s", it.time_s}});
    return j;
}

std::string run_summary_json_text(const Run& run) { return run_summary_json(run).dump(2) + "\n"; }

void require_finite(const Run& run) {
    auto refuse = [](const std::string& what, double value) {
        std::ostringstream message;
        message << "the run's " << what << " is " << value
                << ", which cannot be written or stored; the scenario's durations, rates or sizes are likely beyond "
                   "what the simulator can represent (nothing was written)";
        throw NonFiniteResult(message.str());
    };
    const auto summary = summary_to_json(run.summary);
    for (const auto& field : summary.items())
        if (field.value().is_number_float() && !std::isfinite(field.value().get<double>()))
            refuse(field.key(), field.value().get<double>());
    for (const auto& iteration : run.iterations)
        if (!std::isfinite(iteration.time_s)) refuse("iteration " + std::to_string(iteration.index) + " time", iteration.time_s);
    for (const auto& span : run.spans)
        if (!std::isfinite(span.start_s) || !std::isfinite(span.end_s) || !std::isfinite(span.bytes))
            refuse("span '" + span.name + "' of rank " + std::to_string(span.rank) + " (start, end or bytes)",
                   !std::isfinite(span.start_s) ? span.start_s : !std::isfinite(span.end_s) ? span.end_s : span.bytes);
}

Run read_run_json_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot read this file (expected a run JSON written by --json)");
    const auto json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        throw InputError(path + ": not valid JSON (expected a run JSON written by --json)");
    try {
        Run run;
        run.kind = run_kind_from_string(json.at("kind").get<std::string>());
        run.scenario_name = json.value("scenario", "");
        run.scenario_hash = json.value("scenario_hash", "");
        run.strategy = json.value("strategy", "");
        run.label = json.value("label", "");
        run.overrides = json.value("overrides", std::map<std::string, std::string>{});
        run.summary = summary_from_json(json);
        for (const auto& it : json.at("iterations")) run.iterations.push_back({it.at("index").get<int>(), it.at("time_s").get<double>()});
        return run;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a run JSON written by --json (" + e.what() + ")");
    } catch (const std::invalid_argument& e) {
        throw InputError(path + ": not a run JSON written by --json (" + e.what() + ")");
    }
}

}  // namespace dtsim
