#pragma once
// Turns calibration samples into a profile: one piecewise α-β fit per (op, mode, link class, ranks,
// nodes), a GEMM curve per precision, memory bandwidth and launch overhead.
#include <string>
#include <vector>

#include "dtsim/calibrate/samples.hpp"
#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

Profile fit_profile(const std::vector<Sample>& samples, const std::string& environment_json, const std::string& name);

}  // namespace dtsim::calibrate
