#pragma once
// `dtsim fit --validate`: every measured collective is simulated from the profile's point-to-point fits
// alone (no collective fit is used) and compared with its measurement. Single-op (latency-mode)
// samples are compared, since the simulator replays one operation at a time.
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtsim/calibrate/samples.hpp"
#include "dtsim/sim/simulation_progress.hpp"

namespace dtsim::cli {

struct ValidationRow {
    NetworkOp op = NetworkOp::allreduce;
    int ranks = 0;
    double bytes = 0;
    double measured_s = 0;
    double predicted_s = 0;
    double relative_error() const { return (predicted_s - measured_s) / measured_s; }
};

/// Simulates each collective sample on the calibration's layout (environment.json) with the profile;
/// `progress`, if not null, follows the replay.
std::vector<ValidationRow> cross_validate(const std::vector<calibrate::Sample>& samples, const std::string& environment_path,
                                          const std::string& profile_path, sim::SimulationProgress* progress);

/// Per-sample table, then per operation the median and max |error|, all sizes and above 64 KB.
void print_validation(std::ostream& out, const std::vector<ValidationRow>& rows);
nlohmann::ordered_json validation_json(const std::vector<ValidationRow>& rows);

}  // namespace dtsim::cli
