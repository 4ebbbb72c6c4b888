#include "dtsim/run_comparison.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "dtsim/units.hpp"

namespace dtsim {
namespace {

double share(double part_s, double iteration_s) { return iteration_s > 0 ? part_s / iteration_s : 0; }

struct MetricDefinition {
    const char* key;
    const char* label;
    double (*value)(const RunSummary&);
    MetricFormat format;
    bool optional = false;  // shown where either run has a value: large-model metrics
};

// The rows of the comparison, in the order they are printed.
const MetricDefinition kMetrics[] = {
    {"iteration_time_s", "iteration time", [](const RunSummary& s) { return s.iteration_time_s; }, MetricFormat::seconds},
    {"samples_per_s", "throughput (samples/s)", [](const RunSummary& s) { return s.samples_per_s; }, MetricFormat::rate},
    {"tokens_per_s", "throughput (tokens/s)", [](const RunSummary& s) { return s.tokens_per_s; }, MetricFormat::rate, true},
    {"model_flops_utilisation", "MFU", [](const RunSummary& s) { return s.model_flops_utilisation; }, MetricFormat::share, true},
    {"hardware_flops_utilisation", "HFU", [](const RunSummary& s) { return s.hardware_flops_utilisation; }, MetricFormat::share, true},
    {"tflops_per_gpu", "model TFLOP/s per GPU", [](const RunSummary& s) { return s.tflops_per_gpu; }, MetricFormat::rate, true},
    {"compute_time_s", "compute per iteration", [](const RunSummary& s) { return s.compute_time_s; }, MetricFormat::seconds},
    {"comm_time_s", "communication per iteration", [](const RunSummary& s) { return s.comm_time_s; }, MetricFormat::seconds},
    {"wait_time_s", "waiting per iteration", [](const RunSummary& s) { return s.wait_time_s; }, MetricFormat::seconds},
    {"exposed_comm_time_s", "exposed communication", [](const RunSummary& s) { return s.exposed_comm_time_s; }, MetricFormat::seconds},
    {"exposed_tp_s", "exposed tp communication", [](const RunSummary& s) { return s.exposed_tp_s; }, MetricFormat::seconds, true},
    {"exposed_cp_s", "exposed cp communication", [](const RunSummary& s) { return s.exposed_cp_s; }, MetricFormat::seconds, true},
    {"exposed_pp_s", "exposed pp communication", [](const RunSummary& s) { return s.exposed_pp_s; }, MetricFormat::seconds, true},
    {"exposed_dp_s", "exposed dp communication", [](const RunSummary& s) { return s.exposed_dp_s; }, MetricFormat::seconds, true},
    {"exposed_ep_s", "exposed ep communication", [](const RunSummary& s) { return s.exposed_ep_s; }, MetricFormat::seconds, true},
    {"compute_share", "compute share", [](const RunSummary& s) { return share(s.compute_time_s, s.iteration_time_s); }, MetricFormat::share},
    {"comm_share", "communication share", [](const RunSummary& s) { return s.comm_share; }, MetricFormat::share},
    {"wait_share", "wait share", [](const RunSummary& s) { return s.wait_share; }, MetricFormat::share},
    {"bubble_fraction", "pipeline bubble", [](const RunSummary& s) { return s.bubble_fraction; }, MetricFormat::share, true},
    {"memory_per_gpu_bytes", "memory per GPU", [](const RunSummary& s) { return s.memory_per_gpu_bytes; }, MetricFormat::bytes, true},
};

nlohmann::ordered_json value_json(const ComparedValue& v) {
    const auto error = v.relative_error();
    return {{"reference", v.reference}, {"other", v.other}, {"relative_error", error ? nlohmann::ordered_json(*error) : nullptr}};
}

nlohmann::ordered_json run_identity_json(const Run& run, const std::string& name) {
    nlohmann::ordered_json j = {{"source", name}, {"kind", to_string(run.kind)}, {"scenario", run.scenario_name},
                                {"scenario_hash", run.scenario_hash}, {"strategy", run.strategy}, {"gpus", run.summary.gpus}};
    if (run.summary.has_memory_estimate()) {
        j["memory_capacity_bytes"] = run.summary.memory_capacity_bytes;
        j["fits"] = run.summary.fits;
    }
    return j;
}

constexpr double kVerdictWithin = 0.10;

std::string fixed_text(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string percent_text(double fraction) { return fixed_text("%.1f %%", 100 * fraction); }

}  // namespace

std::string format_metric_value(const MetricComparison& metric, double value) {
    switch (metric.format) {
        case MetricFormat::share: return percent_text(value);
        case MetricFormat::rate: return fixed_text("%.1f", value);
        case MetricFormat::bytes: return format_bytes(value);
        case MetricFormat::seconds: break;
    }
    return format_seconds(value);
}

std::string format_relative_error(const ComparedValue& value) {
    const auto error = value.relative_error();
    return error ? fixed_text("%+.2f %%", 100 * *error) : "n/a";
}

std::optional<double> ComparedValue::relative_error() const {
    if (reference == 0) return other == 0 ? std::optional<double>(0.0) : std::nullopt;
    return (other - reference) / std::abs(reference);
}

std::optional<double> RunComparison::iteration_time_error() const {
    for (const auto& m : metrics)
        if (m.key == "iteration_time_s") return m.value.relative_error();
    return std::nullopt;
}

std::vector<RankTimes> per_rank_times(const Run& run) {
    const int iterations = static_cast<int>(run.iterations.size());
    const int first_counted = iterations > 1 ? 1 : 0;
    const double counted = std::max(1, iterations - first_counted);
    std::map<int, RankTimes> by_rank;
    for (const auto& info : run.ranks) by_rank[info.rank] = RankTimes{info.rank, info.label, 0, 0, 0};
    for (const auto& span : run.spans) {
        if (span.iteration < first_counted) continue;
        auto& times = by_rank[span.rank];
        times.rank = span.rank;
        const double duration = (span.end_s - span.start_s) / counted;
        if (span.lane == Lane::compute) times.compute_s += duration;
        if (span.lane == Lane::comm) times.comm_s += duration;
        if (span.lane == Lane::wait) times.wait_s += duration;
    }
    std::vector<RankTimes> out;
    for (auto& [rank, times] : by_rank) {
        if (times.label.empty()) times.label = "rank " + std::to_string(rank);
        out.push_back(times);
    }
    return out;
}

RunComparison compare_runs(const Run& first, const Run& second) {
    RunComparison comparison;
    comparison.reference_is_first = !(second.kind == RunKind::measured && first.kind != RunKind::measured);
    const Run& reference = comparison.reference_is_first ? first : second;
    const Run& other = comparison.reference_is_first ? second : first;
    for (const auto& m : kMetrics) {
        const ComparedValue value{m.value(reference.summary), m.value(other.summary)};
        if (!m.optional || value.reference != 0 || value.other != 0) comparison.metrics.push_back({m.key, m.label, value, m.format});
    }

    if (reference.spans.empty() || other.spans.empty()) return comparison;
    std::map<int, RankTimes> others;
    for (const auto& times : per_rank_times(other)) others[times.rank] = times;
    for (const auto& mine : per_rank_times(reference)) {
        const auto theirs = others.find(mine.rank);
        if (theirs == others.end()) continue;
        const auto& t = theirs->second;
        comparison.ranks.push_back(
            {mine.rank, mine.label, {mine.compute_s, t.compute_s}, {mine.comm_s, t.comm_s}, {mine.wait_s, t.wait_s}});
    }
    return comparison;
}

std::string comparison_verdict(const RunComparison& comparison, const Run& reference, const Run& other) {
    const auto error = comparison.iteration_time_error();
    if (!error) return "no verdict: the reference iteration time is 0";
    // Within the fidelity target's maximum (docs/fidelity.md: max 10 %) it is "within"; beyond, "off by".
    const std::string within = (std::abs(*error) <= kVerdictWithin ? "within " : "off by ") + percent_text(std::abs(*error));
    const std::string direction = *error > 0 ? "slower" : *error < 0 ? "faster" : "equal";
    if (reference.kind == RunKind::measured && other.kind == RunKind::predicted)
        return "prediction " + within + " from measurement (iteration time; predicted " + direction + ")";
    return "other run " + within + " from the reference (iteration time; " + direction + ")";
}

nlohmann::ordered_json comparison_json(const RunComparison& comparison, const Run& reference, const std::string& reference_name,
                                       const Run& other, const std::string& other_name) {
    nlohmann::ordered_json j;
    j["reference"] = run_identity_json(reference, reference_name);
    j["other"] = run_identity_json(other, other_name);
    auto& metrics = j["metrics"] = nlohmann::ordered_json::object();
    for (const auto& m : comparison.metrics) metrics[m.key] = value_json(m.value);
    auto& ranks = j["ranks"] = nlohmann::ordered_json::array();
    for (const auto& r : comparison.ranks)
        ranks.push_back({{"rank", r.rank},
                         {"label", r.label},
                         {"compute_s", value_json(r.compute_s)},
                         {"comm_s", value_json(r.comm_s)},
                         {"wait_s", value_json(r.wait_s)}});
    const auto error = comparison.iteration_time_error();
    j["iteration_time_error"] = error ? nlohmann::ordered_json(*error) : nullptr;
    j["verdict"] = comparison_verdict(comparison, reference, other);
    return j;
}

}  // namespace dtsim
