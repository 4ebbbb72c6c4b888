#pragma once
// Every simulated configuration of every option of `dtsim advise`, as its --json writes them for the GUI's
// Advise view (docs/gui.md): degrees and schedule, the simulated figures, time-to-train and cost, the run
// stored for it, and whether it is on the Pareto frontier of time-to-train and cost over all of them.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "dtsim/hardware_cost.hpp"
#include "plan_search.hpp"

namespace dtsim::cli {

struct ConfigurationResult {
    PlanCandidate candidate;
    std::optional<std::int64_t> run_id;
    std::optional<TrainingCost> cost;  // none where the simulation failed
};

/// The value, or null where there is none.
nlohmann::ordered_json optional_number(const std::optional<double>& value);

/// One JSON array per option, in the options' order.
std::vector<nlohmann::ordered_json> configurations_json(const std::vector<std::vector<ConfigurationResult>>& options);

}  // namespace dtsim::cli
