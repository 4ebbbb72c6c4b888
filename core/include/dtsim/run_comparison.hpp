#pragma once
// Predicted against measured, phase by phase (iteration, compute, communication, exposed communication,
// wait): what the GUI's compare view tabulates.
#include <string>
#include <vector>

#include "dtsim/run.hpp"

namespace dtsim {

struct PhaseComparison {
    std::string phase;
    double predicted_s = 0;
    double measured_s = 0;
    /// (predicted - measured) / measured; 0 when both are 0, infinite when only the measurement is 0.
    double relative_error() const;
};

std::vector<PhaseComparison> compare_phases(const RunSummary& predicted, const RunSummary& measured);

/// Runs of one scaling series share this key: their scenario with the scale keys (cluster.nodes,
/// cluster.gpus_per_node) removed, so a sweep over the cluster size gives one series per other setting.
std::string scaling_family(const std::string& scenario_name, const std::string& scenario_text);

}  // namespace dtsim
