#pragma once
// Which stored run each simulated configuration of a plan is. The children `run_plan` starts append their
// runs to the database in whatever order they finish, so a configuration finds its run by what the run
// records: the request's label and the configuration's --set overrides.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan_search.hpp"

namespace dtsim::cli {

/// The newest run's id in the database; 0 without a database path or a database, or with no runs.
std::int64_t newest_run_id(const std::string& db_path);

/// For each candidate, the newest run after `after_id` in the request's database with the request's label
/// and the candidate's overrides as the scenario loader records them; none where no run matches (a failed
/// simulation, no database).
std::vector<std::optional<std::int64_t>> stored_run_ids(const PlanRequest& request, std::int64_t after_id,
                                                        const std::vector<PlanCandidate>& candidates);

}  // namespace dtsim::cli
