#pragma once
// `dtsim-runtime measure SCENARIO`: runs the scenario's training loop for real, one rank per worker plus
// the dedicated parameter servers, and stores the run (kind `measured`) like a simulated one.
#include <string>
#include <vector>

#include "../mpi_context.hpp"
#include "dtsim/run_outputs.hpp"

namespace dtsim::runtime {

struct MeasureOptions {
    std::string scenario;
    std::vector<std::string> overrides;
    RunOutputs outputs;
    bool verify = false;  // check every synchronised gradient against the exact sum
    bool gemm_compute = false;  // each layer as GEMMs on the CPU device instead of busy-waiting its modelled time
};

/// Returns the exit code. Throws InputError (identically on every rank) for a scenario it refuses.
int run_measure(const MeasureOptions& options, const MpiContext& context);

}  // namespace dtsim::runtime
