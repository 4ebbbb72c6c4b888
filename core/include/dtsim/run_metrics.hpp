#pragma once
// Turns a run's timeline (simulated or measured) into its summary: iteration times, throughput, speedup and scaling
// efficiency against one GPU, and where the time went.
#include <vector>

#include "dtsim/run.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

/// "allreduce/ring", "parameter-server/sync x4 dedicated", ...: the strategy as a run records it; an LLM
/// layout by its degrees above 1 and what is not the default: "tp8 pp4 dp16 1f1b zero1", "dp64 fsdp full".
std::string describe_strategy(const TrainingSpec& training);

/// A run of the scenario before its timeline: what it ran, and its ranks (the GPUs node-major, then one per
/// parameter server, on `server_nodes`), for simulated and measured runs alike.
Run start_run(const Scenario& scenario, RunKind kind, const std::vector<int>& server_nodes);

/// What the actors observed beyond the spans.
struct Observations {
    std::vector<std::vector<double>> rank_iteration_ends;  // [worker][iteration]; empty: not recorded
    std::vector<double> staleness;                         // version gaps of the gradients applied (PS async/ssp)
    std::vector<double> staleness_clocks;                  // the same gradients' iteration minus the clock below which
                                                           // every update was in the parameters they were computed on
    std::vector<int> gradients_applied;                    // per iteration: workers whose gradients count; empty: all
    double lost_work_s = 0;                                // node failure, per worker (see RunSummary)
    double restart_s = 0;
    double checkpoint_s = 0;
    int ranks_with_timeline = 0;  // GPUs whose spans were recorded, when fewer than all (one per tensor group)
};

/// `iteration_ends` are the times the slowest worker finished each iteration. Only the iterations after
/// the first enter the means (the first includes start-up effects), unless there is only one.
/// Workers that do not wait for each other (PS async/ssp) each train at their own rate: the throughput is
/// the sum of their rates, and the iteration time the one that gives that throughput.
/// Throughput counts the global batch (scenario.global_batch(): with an LLM layout, the data-parallel
/// replicas' samples); speedup is against one GPU training the same samples (docs/llm.md, "Outputs").
RunSummary summarize(const Scenario& scenario, const CostModel& costs, const std::vector<Span>& spans,
                     const std::vector<double>& iteration_ends, std::vector<IterationRecord>& iterations,
                     const Observations& observed = {});

}  // namespace dtsim
