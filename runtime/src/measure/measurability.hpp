#pragma once
// Which scenarios a measured run can execute today, and how many ranks it needs.
#include <optional>
#include <string>

#include "dtsim/scenario.hpp"
#include "modelled_compute.hpp"

namespace dtsim::runtime {

/// Workers (one per GPU of the scenario) plus dedicated parameter servers.
int ranks_needed(const Scenario& scenario);

/// Why this scenario cannot be measured with `world_size` ranks, in one line naming the key; nullopt
/// when it can.
/// `compute`: how the run holds the device (gemm needs a zoo model's FLOPs); `gpu`: --backend nccl, whose
/// measured runs all-reduce on the GPU with NCCL (ring or tree, uncompressed) and have no parameter servers.
std::optional<std::string> measure_refusal(const Scenario& scenario, int world_size, ComputeMode compute, bool gpu);

}  // namespace dtsim::runtime
