#include "plan_run_ids.hpp"

#include <filesystem>

#include "dtsim/data_paths.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim::cli {

std::int64_t newest_run_id(const std::string& db_path) {
    if (db_path.empty() || !std::filesystem::exists(db_path)) return 0;
    const auto runs = RunStore::for_reading(db_path).list();
    return runs.empty() ? 0 : runs.back().id;
}

std::vector<std::optional<std::int64_t>> stored_run_ids(const PlanRequest& request, std::int64_t after_id,
                                                        const std::vector<PlanCandidate>& candidates) {
    std::vector<std::optional<std::int64_t>> ids(candidates.size());
    if (request.db_path.empty() || !std::filesystem::exists(request.db_path)) return ids;
    const auto runs = RunStore::for_reading(request.db_path).list();
    const auto text = read_text_file(request.scenario_file);
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (!candidates[i].simulated) continue;
        // Loaded as the child loaded it, so that the overrides are keyed as its stored run's are.
        const auto overrides = load_scenario_text(text, request.scenario_file, candidates[i].overrides, SweepValues::skip).overrides;
        for (auto run = runs.rbegin(); run != runs.rend() && run->id > after_id; ++run)
            if (run->label == request.label && run->overrides == overrides) {
                ids[i] = run->id;
                break;
            }
    }
    return ids;
}

}  // namespace dtsim::cli
