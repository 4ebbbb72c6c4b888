#pragma once
// One search of `dtsim plan` (docs/plan.md): a scenario's configurations on a number of GPUs enumerated,
// validated by the scenario loader, those that do not fit in memory dropped, the rest estimated
// analytically, the best estimates simulated as child processes, and the simulated ranked.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/plan_estimate.hpp"
#include "dtsim/plan_space.hpp"
#include "dtsim/run.hpp"
#include "progress_display.hpp"

namespace dtsim::cli {

struct PlanRequest {
    std::string scenario_file;
    std::vector<std::string> overrides;  // the user's --set, before each configuration's
    int gpus = 0;                        // 0: the scenario's
    std::map<PlanKey, std::vector<std::string>> search;  // restricted search keys
    int max_context = 8;
    double margin = 0.25;                // simulate estimates within this share of the best
    int simulate_at_most = 16;
    int jobs = 1;                        // simulations at a time, and threads checking configurations
    std::string db_path;
    std::string label;
    ProgressStyle progress = ProgressStyle::none;
    std::string task = "plan";           // what the progress line names
};

struct PlanCandidate {
    PlanConfig config;
    std::vector<std::string> overrides;  // the request's, then the configuration's
    double memory_bytes = 0;
    PlanEstimate estimate;
    std::optional<RunSummary> simulated;
    std::string failure;                 // a simulation that failed: its error text
};

struct PlanOutcome {
    long long enumerated = 0;
    long long invalid = 0;                         // refused by the scenario loader
    std::map<std::string, long long> unfit;        // dropped for memory, by reason
    long long feasible = 0;
    long long pruned_by_margin = 0;
    long long pruned_by_limit = 0;
    std::vector<PlanCandidate> simulated;          // ranked: fastest first, then by description
    double memory_capacity_bytes = 0;
    int gpus = 0;
};

/// Throws InputError where the scenario cannot be planned (no LLM-capable transformer, a strategy the
/// plan cannot vary, GPUs that are not whole nodes).
PlanOutcome run_plan(const PlanRequest& request);

}  // namespace dtsim::cli
