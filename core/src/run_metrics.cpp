#include "dtsim/run_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "dtsim/exposed_time.hpp"
#include "dtsim/median.hpp"
#include "dtsim/memory_model.hpp"
#include "dtsim/timeline_names.hpp"

namespace dtsim {
namespace {

double mean(const std::vector<double>& values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

void add_staleness(RunSummary& s, std::vector<double> gaps, const std::vector<double>& clocks) {
    if (!clocks.empty()) {
        s.staleness_clocks_mean = mean(clocks);
        s.staleness_clocks_max = *std::max_element(clocks.begin(), clocks.end());
    }
    if (gaps.empty()) return;
    std::sort(gaps.begin(), gaps.end());
    s.staleness_mean = mean(gaps);
    s.staleness_p50 = percentile(gaps, 0.50);
    s.staleness_p99 = percentile(gaps, 0.99);
    s.staleness_max = gaps.back();
}

// Each worker's own rate over the iterations after its first.
std::vector<double> worker_rates(const std::vector<std::vector<double>>& ends, double samples) {
    std::vector<double> rates;
    for (const auto& mine : ends) {
        if (mine.empty()) continue;
        const double span = mine.size() > 1 ? mine.back() - mine.front() : mine.back();
        const double counted = mine.size() > 1 ? static_cast<double>(mine.size() - 1) : 1.0;
        rates.push_back(span > 0 ? counted * samples / span : 0);
    }
    return rates;
}

// Busiest direction of each server's NIC over the measured iterations, against the NIC's capacity.
double server_link_utilisation(const Scenario& scenario, const LinkModel& nic, const std::vector<Span>& spans,
                               int first_measured, double seconds) {
    const auto& strategy = scenario.training.strategy;
    if (strategy.kind != StrategyKind::parameter_server || seconds <= 0) return 0;
    const int workers = scenario.cluster.gpus();
    std::vector<double> in(static_cast<size_t>(strategy.servers), 0), out(in);
    for (const auto& span : spans) {
        if (span.rank < workers || span.iteration < first_measured) continue;
        const auto server = static_cast<size_t>(span.rank - workers);
        (span.lane == Lane::compute ? in : out)[server] += span.bytes;  // aggregated = received, sent = sent
    }
    const double capacity = nic.effective_bytes_per_second() * seconds;
    double total = 0;
    for (size_t p = 0; p < in.size(); ++p) total += std::max(in[p], out[p]) / capacity;
    return total / static_cast<double>(in.size());
}

// "tp8 sp pp4 dp16 1f1b zero1": each degree above 1, then what is not the default.
std::string describe_layout(const LlmSpec& llm) {
    const auto& p = llm.parallelism;
    std::string text;
    auto add = [&text](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
    auto degree = [&add](Dimension dimension, int value) {
        if (value > 1) add(std::string(kDimensionNames.name(dimension)) + std::to_string(value));
    };
    degree(Dimension::tp, p.tensor);
    if (p.sequence_parallel) add("sp");
    degree(Dimension::cp, p.context);
    degree(Dimension::pp, p.pipeline);
    degree(Dimension::dp, p.data);
    degree(Dimension::ep, p.expert);
    if (text.empty()) add("dp1");
    if (p.pipeline > 1) add(std::string(kPipelineScheduleNames.name(llm.pipeline.schedule)));
    if (llm.pipeline.virtual_stages > 1) add("v" + std::to_string(llm.pipeline.virtual_stages));
    if (llm.pipeline.embedding_in_split || llm.pipeline.loss_in_split)
        add(llm.pipeline.embedding_in_split && llm.pipeline.loss_in_split ? "emb+loss" : llm.pipeline.embedding_in_split ? "emb" : "loss");
    if (llm.fsdp)
        add("fsdp " + std::string(kFsdpShardingNames.name(llm.fsdp_sharding)));
    else if (llm.zero_stage > 0)
        add("zero" + std::to_string(llm.zero_stage));
    if (llm.recompute != Recompute::none) add("recompute " + std::string(kRecomputeNames.name(llm.recompute)));
    if (llm.reduce_precision) add("grads " + std::string(to_string(*llm.reduce_precision)));
    return text;
}

// What one sample is worth: its tokens, and the FLOPs of its forward and backward as the Megatron papers
// count them (model) and as the GPUs execute them (hardware: with recomputation). Zero for a direct model.
struct SampleWork {
    double tokens = 0;
    double model_flops = 0;
    double hardware_flops = 0;
};

SampleWork sample_work(const Scenario& scenario, const CostModel& costs) {
    if (const auto* llm = costs.llm()) return {1.0 * llm->tokens_per_sequence, llm->model_flops_per_sequence, llm->hardware_flops_per_sequence};
    const auto& model = scenario.model;
    if (!model.zoo) return {};
    const double forward = model.zoo->forward_flops_per_sample();
    const double tokens = model.zoo->transformer ? model.zoo->transformer->sequence_length : 0;
    return {tokens, 3 * forward, (3 + model.recompute_fraction) * forward};
}

// One GPU's iteration for the samples each GPU of the job trains per iteration (global batch / GPUs): its
// own batch under data parallelism; with an LLM layout, that share of sequences through the whole model.
double single_gpu_iteration_s(const Scenario& scenario, const CostModel& costs) {
    if (const auto* llm = costs.llm()) return llm->single_gpu_sequence_s * scenario.global_batch() / scenario.cluster.gpus();
    return costs.single_gpu_iteration_s();
}

void add_flops_utilisation(RunSummary& s, const Scenario& scenario, const CostModel& costs) {
    const auto work = sample_work(scenario, costs);
    s.tokens_per_s = s.samples_per_s * work.tokens;
    const double samples_per_gpu_s = s.samples_per_s / s.gpus;
    s.tflops_per_gpu = samples_per_gpu_s * work.model_flops / 1e12;
    const auto& peaks = scenario.cluster.gpu.peak_flops_per_second;
    const auto peak = peaks.find(scenario.model.precision);
    if (peak == peaks.end() || peak->second <= 0) return;  // a direct model's GPU may give none
    s.model_flops_utilisation = samples_per_gpu_s * work.model_flops / peak->second;
    s.hardware_flops_utilisation = samples_per_gpu_s * work.hardware_flops / peak->second;
}

void add_memory(RunSummary& s, const Scenario& scenario) {
    const auto memory = estimate_memory(scenario);
    s.memory_per_gpu_bytes = memory.peak();
    s.memory_capacity_bytes = memory.capacity;
    s.fits = memory.fits();
}

}  // namespace

std::string describe_strategy(const TrainingSpec& training) {
    if (training.llm) return describe_layout(*training.llm);
    const auto& strategy = training.strategy;
    if (strategy.kind == StrategyKind::allreduce) return "allreduce/" + to_string(strategy.algorithm);
    const std::string mode = strategy.sync == SyncMode::ssp ? "ssp(" + std::to_string(strategy.staleness) + ")" : to_string(strategy.sync);
    return "parameter-server/" + mode + " x" + std::to_string(strategy.servers) + " " + to_string(strategy.placement) +
           (strategy.sharding == Sharding::round_robin ? " round-robin" : "");
}

Run start_run(const Scenario& scenario, RunKind kind, const std::vector<int>& server_nodes) {
    Run run;
    run.kind = kind;
    run.scenario_name = scenario.name;
    run.scenario_hash = scenario.hash;
    run.scenario_text = scenario.canonical_text;
    run.overrides = scenario.overrides;
    run.strategy = describe_strategy(scenario.training);
    const int workers = scenario.cluster.gpus();
    for (int r = 0; r < workers; ++r) run.ranks.push_back({r, scenario.cluster.node_of(r), "gpu " + std::to_string(r)});
    for (size_t p = 0; p < server_nodes.size(); ++p)
        run.ranks.push_back({workers + static_cast<int>(p), server_nodes[p], "server " + std::to_string(p)});
    return run;
}

RunSummary summarize(const Scenario& scenario, const CostModel& costs, const std::vector<Span>& spans, const std::vector<double>& iteration_ends,
                     std::vector<IterationRecord>& iterations, const Observations& observed) {
    const int workers = scenario.cluster.gpus();
    const int count = static_cast<int>(iteration_ends.size());
    const int first_measured = count > 1 ? 1 : 0;
    const int measured = count - first_measured;

    iterations.clear();
    double previous_end = 0, measured_time = 0;
    for (int i = 0; i < count; ++i) {
        const double time = iteration_ends[static_cast<size_t>(i)] - previous_end;
        iterations.push_back({i, time});
        if (i >= first_measured) measured_time += time;
        previous_end = iteration_ends[static_cast<size_t>(i)];
    }

    double compute = 0, comm = 0, wait = 0, bubble = 0;
    for (const auto& span : spans) {
        if (span.rank >= workers || span.iteration < first_measured) continue;
        const double duration = span.end_s - span.start_s;
        if (span.lane == Lane::compute) compute += duration;
        if (span.lane == Lane::comm) comm += duration;
        if (span.lane == Lane::wait) wait += duration;
        if (span.lane == Lane::wait && span.name == kPipelineBubbleSpan) bubble += duration;
    }
    // Means per rank are over the ranks with a timeline: in flow fidelity one stands for its tensor group.
    const int timelines = observed.ranks_with_timeline > 0 ? observed.ranks_with_timeline : workers;
    const double per_rank_iteration = static_cast<double>(timelines) * measured;
    // Throughput counts the samples whose gradients were applied: fewer than the GPUs' with backup workers
    // or after a node was dropped.
    double applied = 0;
    for (int i = first_measured; i < count; ++i)
        applied += observed.gradients_applied.empty() ? workers : observed.gradients_applied[static_cast<size_t>(i)];
    const double applying_workers = applied / measured;
    // The job's samples per iteration whose gradients count: with an LLM layout the data-parallel replicas
    // train on different samples, not every GPU.
    const double applied_batch = scenario.global_batch() * applying_workers / workers;
    const double samples_per_worker = scenario.global_batch() / workers;

    RunSummary s;
    s.gpus = workers;
    s.nodes = scenario.cluster.nodes;
    s.gpus_per_node = scenario.cluster.gpus_per_node;
    s.batch_per_gpu = scenario.model.batch_per_gpu;
    s.gradient_bytes = costs.gradient_bytes();
    s.iteration_time_s = measured_time / measured;
    s.samples_per_s = s.iteration_time_s > 0 ? applied_batch / s.iteration_time_s : 0;
    const auto rates = worker_rates(observed.rank_iteration_ends, samples_per_worker);
    if (!rates.empty()) {
        s.worker_samples_per_s_min = *std::min_element(rates.begin(), rates.end());
        s.worker_samples_per_s_max = *std::max_element(rates.begin(), rates.end());
        const auto& strategy = scenario.training.strategy;
        if (strategy.kind == StrategyKind::parameter_server && strategy.sync != SyncMode::sync) {
            s.samples_per_s = std::accumulate(rates.begin(), rates.end(), 0.0);
            s.iteration_time_s = s.samples_per_s > 0 ? applied_batch / s.samples_per_s : 0;
        }
    }
    s.single_gpu_iteration_time_s = single_gpu_iteration_s(scenario, costs);
    s.speedup = s.iteration_time_s > 0 ? applying_workers * s.single_gpu_iteration_time_s / s.iteration_time_s : 0;
    s.scaling_efficiency = s.speedup / workers;
    s.compute_time_s = compute / per_rank_iteration;
    s.comm_time_s = comm / per_rank_iteration;
    s.wait_time_s = wait / per_rank_iteration;
    s.exposed_comm_time_s = std::max(0.0, s.iteration_time_s - s.compute_time_s);
    s.comm_share = s.iteration_time_s > 0 ? s.comm_time_s / s.iteration_time_s : 0;
    s.wait_share = s.iteration_time_s > 0 ? s.wait_time_s / s.iteration_time_s : 0;
    add_staleness(s, observed.staleness, observed.staleness_clocks);
    s.server_link_utilisation = server_link_utilisation(scenario, costs.nic(), spans, first_measured, measured_time);
    s.lost_work_s = observed.lost_work_s;
    s.restart_s = observed.restart_s;
    s.checkpoint_s = observed.checkpoint_s;

    add_flops_utilisation(s, scenario, costs);
    s.bubble_fraction = s.iteration_time_s > 0 ? bubble / per_rank_iteration / s.iteration_time_s : 0;
    const auto exposed = exposed_time_by_dimension(spans, workers, first_measured);
    auto mean_exposed = [&](Dimension d) { return exposed[static_cast<size_t>(d)] / per_rank_iteration; };
    s.exposed_tp_s = mean_exposed(Dimension::tp);
    s.exposed_cp_s = mean_exposed(Dimension::cp);
    s.exposed_pp_s = mean_exposed(Dimension::pp);
    s.exposed_dp_s = mean_exposed(Dimension::dp);
    s.exposed_ep_s = mean_exposed(Dimension::ep);
    add_memory(s, scenario);
    return s;
}

}  // namespace dtsim
