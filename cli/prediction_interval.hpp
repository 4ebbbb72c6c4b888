#pragma once
// `dtsim simulate --uncertainty N`: the scenario simulated again with N draws of its profile's costs
// (dtsim/profile_draw.hpp), each in a child process, and the interval the iteration times span
// (docs/calibration.md, "Prediction intervals").
#include <string>
#include <vector>

#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"

#include "progress_display.hpp"

namespace dtsim::cli {

/// Sets summary.uncertainty_draws and the 5th and 95th percentiles of the iteration time over `draws`
/// simulations of `scenario_file` with `overrides`, draw i with seed i + 1. InputError where the scenario
/// has no profile, or its profile kept no standard errors. The draws' progress is shown as `style` says.
void add_prediction_interval(const Scenario& scenario, const std::string& scenario_file, const std::vector<std::string>& overrides,
                             int draws, ProgressStyle style, RunSummary& summary);

}  // namespace dtsim::cli
