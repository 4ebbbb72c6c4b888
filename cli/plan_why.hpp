#pragma once
// Why a configuration is as fast as it is (docs/plan.md, "Why"): the share of its iteration each
// dimension's communication is exposed, over which link class, the pipeline bubble, and how much faster it
// would run with twice the NIC bandwidth or twice the GPU speed, each simulated again.
#include <array>
#include <optional>
#include <string>

#include "dtsim/parallelism.hpp"
#include "plan_search.hpp"

namespace dtsim::cli {

struct PlanWhy {
    double iteration_s = 0;
    std::array<double, kDimensions> exposed_share{};  // per Dimension, of the iteration
    std::array<std::string, kDimensions> link;        // the link class each dimension's groups use
    double bubble_share = 0;
    std::optional<double> faster_nics_s;  // the iteration re-simulated with 2× NIC bandwidth
    std::optional<double> faster_gpus_s;  // and with 2× GPU peak rates and memory bandwidth
    std::string failure;                  // why a re-simulation failed, where one did
};

/// `best` must have been simulated. Simulates it twice more as child processes.
PlanWhy explain_plan(const std::string& scenario_file, const PlanCandidate& best, int jobs);

/// "exposed communication 18 % of the iteration: dp 12.0 % over NIC (eth-200g, fat-tree 2:1), ...;
/// pipeline bubble 3.1 %" and "2× NIC bandwidth: −9.8 %, 2× GPU speed: −41.0 %".
std::string bottleneck_line(const PlanWhy& why);
std::string sensitivity_line(const PlanWhy& why);

}  // namespace dtsim::cli
