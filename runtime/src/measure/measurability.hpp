#pragma once
// Which scenarios a measured run can execute today, and how many ranks it needs.
#include <optional>
#include <string>

#include "dtsim/scenario.hpp"

namespace dtsim::runtime {

/// Workers (one per GPU of the scenario) plus dedicated parameter servers.
int ranks_needed(const Scenario& scenario);

/// Why this scenario cannot be measured with `world_size` ranks, in one line naming the key; nullopt
/// when it can.
/// `gemm_compute`: compute is to run as each layer's GEMMs, which needs a zoo model's FLOPs.
std::optional<std::string> measure_refusal(const Scenario& scenario, int world_size, bool gemm_compute);

}  // namespace dtsim::runtime
