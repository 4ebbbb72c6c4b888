#include "plan_search.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <nlohmann/json.hpp>
#include <thread>

#include "child_runs.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/memory_model.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/units.hpp"

namespace dtsim::cli {
namespace {

// The base scenario as planned: the user's overrides and, with --gpus, the nodes that many GPUs make.
struct PlanBase {
    ScenarioTemplate source;  // the scenario file, parsed once
    std::vector<std::string> overrides;
    Scenario scenario;
    long long global_batch = 0;
    std::string micro_batch_key;
};

PlanBase load_base(const PlanRequest& request) {
    PlanBase base{ScenarioTemplate(read_text_file(request.scenario_file), request.scenario_file), request.overrides, {}, 0, {}};
    const auto first = base.source.load(base.overrides);
    if (request.gpus > 0) {
        const int per_node = first.cluster.gpus_per_node;
        if (request.gpus % per_node != 0)
            throw InputError("command line: --gpus " + std::to_string(request.gpus) + ": expected a multiple of the scenario's " +
                             std::to_string(per_node) + " GPUs per node (" + request.scenario_file + ", cluster.gpus_per_node)");
        base.overrides.push_back("cluster.nodes=" + std::to_string(request.gpus / per_node));
    }
    base.scenario = base.source.load(base.overrides);
    const auto& s = base.scenario;
    if (!s.model.zoo || !s.model.zoo->transformer)
        throw InputError(request.scenario_file + ": key 'model.zoo': plan needs a transformer from the zoo (gpt3-*, llama*, mixtral-8x7b)");
    if (s.training.strategy.kind != StrategyKind::allreduce)
        throw InputError(request.scenario_file + ": key 'training.strategy.kind': plan chooses the sharding (ZeRO 0-3 or FSDP) itself; expected allreduce, got " +
                         to_string(s.training.strategy.kind));
    base.global_batch = static_cast<long long>(s.global_batch());
    const auto yaml = YAML::Load(s.canonical_text);
    base.micro_batch_key = yaml["model"] && yaml["model"]["batch_per_gpu"] ? "model.batch_per_gpu" : "model.micro_batch";
    return base;
}

std::string unfit_reason(const MemoryEstimate& memory) {
    if (memory.states.total() + memory.reserve > memory.capacity) return "weights, gradients and optimizer states alone exceed the GPU's memory";
    return "activations exceed what the model states leave";
}

// Ranked by simulated iteration time, ties (and failed runs, last) by the description: the same order
// for the same scenario and seed.
bool faster(const PlanCandidate& a, const PlanCandidate& b) {
    const double ta = a.simulated ? a.simulated->iteration_time_s : 1e300;
    const double tb = b.simulated ? b.simulated->iteration_time_s : 1e300;
    if (ta != tb) return ta < tb;
    return describe_plan(a.config) < describe_plan(b.config);
}

// What checking one configuration found: refused by the loader (its message), dropped for memory (the
// reason), or a candidate with its memory and estimate.
struct CheckResult {
    std::string refusal;
    std::string unfit;
    double capacity_bytes = 0;
    std::optional<PlanCandidate> candidate;
};

CheckResult check_configuration(const PlanBase& base, const PlanConfig& config) {
    CheckResult result;
    PlanCandidate candidate{config, base.overrides, 0, {}, std::nullopt, {}};
    for (const auto& o : plan_overrides(config, base.global_batch, base.micro_batch_key)) candidate.overrides.push_back(o);
    std::optional<Scenario> scenario;
    try {
        scenario = base.source.load(candidate.overrides);
    } catch (const InputError& e) {
        result.refusal = describe_plan(config) + ": " + e.what();
        return result;
    }
    const auto memory = estimate_memory(*scenario);
    result.capacity_bytes = memory.capacity;
    if (!memory.fits()) {
        result.unfit = unfit_reason(memory);
        return result;
    }
    candidate.memory_bytes = memory.peak();
    candidate.estimate = estimate_iteration(*scenario, CostModel(*scenario));
    result.candidate = std::move(candidate);
    return result;
}

// Checks every configuration on `threads` threads, each taking the next unchecked one; the results keep
// the space's order, so the outcome does not depend on the number of threads.
std::vector<CheckResult> check_all(const PlanRequest& request, const PlanBase& base, const std::vector<PlanConfig>& space, int threads) {
    std::vector<CheckResult> results(space.size());
    std::atomic<size_t> next{0};
    std::atomic<long long> checked{0};
    const auto total = static_cast<long long>(space.size());
    const ProgressDisplay display(request.progress, [&checked, &request, total] {
        ProgressReport report;
        report.task = request.task + " (checking)";
        report.done = checked.load();
        report.total = total;
        report.unit = "configurations";
        return report;
    });
    std::vector<std::exception_ptr> failures(static_cast<size_t>(threads));
    const auto work = [&](size_t thread) {
        try {
            for (size_t i = next++; i < space.size(); i = next++) {
                results[i] = check_configuration(base, space[i]);
                ++checked;
            }
        } catch (...) {
            failures[thread] = std::current_exception();
            next = space.size();
        }
    };
    std::vector<std::thread> workers;
    for (size_t t = 1; t < failures.size(); ++t) workers.emplace_back(work, t);
    work(0);
    for (auto& worker : workers) worker.join();
    for (const auto& failure : failures)
        if (failure) std::rethrow_exception(failure);
    return results;
}

// Loads every configuration as `simulate` would (those it refuses are counted), drops those that do not fit
// in memory (counted by reason) and estimates the rest.
std::vector<PlanCandidate> check_candidates(const PlanRequest& request, const PlanBase& base, const std::vector<PlanConfig>& space,
                                            PlanOutcome& outcome) {
    std::string first_refusal;
    std::vector<PlanCandidate> feasible;
    for (auto& result : check_all(request, base, space, std::max(1, request.jobs))) {
        if (!result.refusal.empty()) {
            if (first_refusal.empty()) first_refusal = std::move(result.refusal);
            ++outcome.invalid;
            continue;
        }
        outcome.memory_capacity_bytes = result.capacity_bytes;
        if (!result.unfit.empty())
            ++outcome.unfit[result.unfit];
        else
            feasible.push_back(std::move(*result.candidate));
    }
    if (outcome.enumerated == outcome.invalid && !first_refusal.empty())
        throw InputError("no configuration of " + request.scenario_file + " is valid; the first refused was " + first_refusal);
    return feasible;
}

}  // namespace

PlanOutcome run_plan(const PlanRequest& request) {
    const auto base = load_base(request);
    const auto& config = *base.scenario.model.zoo->transformer;
    PlanSpaceInput input;
    input.gpus = base.scenario.cluster.gpus();
    input.gpus_per_node = base.scenario.cluster.gpus_per_node;
    input.global_batch = base.global_batch;
    input.layers = config.layers;
    input.experts = config.experts;
    input.max_context = request.max_context;
    input.allowed = request.search;

    PlanOutcome outcome;
    outcome.gpus = input.gpus;
    const auto space = plan_space(input);
    outcome.enumerated = static_cast<long long>(space.size());
    auto feasible = check_candidates(request, base, space, outcome);
    outcome.feasible = static_cast<long long>(feasible.size());
    if (feasible.empty()) return outcome;

    std::stable_sort(feasible.begin(), feasible.end(), [](const PlanCandidate& a, const PlanCandidate& b) {
        const double ea = a.estimate.iteration_s(), eb = b.estimate.iteration_s();
        return ea != eb ? ea < eb : describe_plan(a.config) < describe_plan(b.config);
    });
    const double bound = feasible.front().estimate.iteration_s() * (1 + request.margin);
    std::vector<PlanCandidate> chosen;
    for (auto& candidate : feasible) {
        if (candidate.estimate.iteration_s() > bound)
            ++outcome.pruned_by_margin;
        else if (static_cast<int>(chosen.size()) >= request.simulate_at_most)
            ++outcome.pruned_by_limit;
        else
            chosen.push_back(std::move(candidate));
    }

    std::vector<std::vector<std::string>> arguments;
    for (const auto& candidate : chosen) {
        std::vector<std::string> args{"simulate", request.scenario_file, "--quiet", "--sweep-point"};
        for (const auto& o : candidate.overrides) args.insert(args.end(), {"--set", o});
        if (!request.db_path.empty()) args.insert(args.end(), {"--db", request.db_path});
        if (!request.label.empty()) args.insert(args.end(), {"--label", request.label});
        arguments.push_back(args);
    }
    const auto results = run_children(arguments, request.jobs, "--json", {request.progress, request.task, "configurations"});
    for (size_t i = 0; i < chosen.size(); ++i) {
        if (results[i].exit_code == 0)
            chosen[i].simulated = summary_from_json(nlohmann::json::parse(results[i].output_json));
        else
            chosen[i].failure = "exit " + std::to_string(results[i].exit_code) + ": " + results[i].error_text;
    }
    std::stable_sort(chosen.begin(), chosen.end(), faster);
    outcome.simulated = std::move(chosen);
    return outcome;
}

}  // namespace dtsim::cli
