#pragma once
// An advise study (docs/advise.md): one model and training job, a training target, and the cluster options
// to compare; `dtsim advise` plans each option and ranks them by time-to-train, cost and energy.
#include <map>
#include <string>
#include <vector>

#include "dtsim/hardware_cost.hpp"
#include "dtsim/plan_space.hpp"

namespace dtsim {

struct AdviseOption {
    std::string name;
    std::string scenario_text;  // the study's scenario with this option's cluster: a scenario file's text
    HardwareCosts costs;        // data/hardware/cost/ figures, then the study's, then the option's
    ClusterParts parts;
    double global_batch = 0;         // sequences per iteration
    double tokens_per_sequence = 0;
};

struct AdviseStudy {
    std::string name;
    std::string description;
    TrainingTarget target;
    std::map<PlanKey, std::vector<std::string>> search;  // as `dtsim plan --search`
    int simulate = 4;      // configurations simulated per option
    double margin = 0.25;  // as `dtsim plan --margin`
    std::vector<AdviseOption> options;
};

/// Reads and checks a study: every option's scenario loads as `simulate` would load it. Throws InputError
/// naming the file, line and key (or the option whose scenario is refused, and why).
AdviseStudy load_advise_study(const std::string& path);

}  // namespace dtsim
