#pragma once
// The speedup view's data: the runs of one scenario grouped into scaling series (runs that differ only
// in the cluster size), each with its predicted points and measured points ordered by GPU count. Qt-free.
#include <cstdint>
#include <string>
#include <vector>

#include "dtsim/run_store.hpp"

namespace dtsim::gui {

struct ScalingPoint {
    std::int64_t run_id = 0;
    int gpus = 0;
    RunSummary summary;
};

struct ScalingSeries {
    std::string label;  // the strategy, which tells a scenario's series apart in a sweep
    std::vector<ScalingPoint> predicted;
    std::vector<ScalingPoint> measured;
    bool contains(std::int64_t run_id) const;
};

/// Series of the runs named `scenario_name`; at each GPU count the latest run of a kind stands.
std::vector<ScalingSeries> scaling_series(const std::vector<RunListEntry>& runs, const std::string& scenario_name);

}  // namespace dtsim::gui
