#pragma once
// `dtsim-runtime measure SCENARIO`: runs the scenario's training loop for real, one rank per worker plus
// the dedicated parameter servers, and stores the run (kind `measured`) like a simulated one.
#include <string>
#include <vector>

#include "../mpi_context.hpp"
#include "modelled_compute.hpp"
#include "dtsim/run_outputs.hpp"

namespace dtsim::runtime {

struct MeasureOptions {
    std::string scenario;
    std::vector<std::string> overrides;
    RunOutputs outputs;
    std::string label;  // stored with the run
    bool verify = false;  // check every synchronised gradient against the exact sum
    ComputeMode compute = ComputeMode::busy;
    std::string backend = "mpi";  // mpi: CPU workers, host buffers, MPI; nccl: GPUs, cuBLAS and NCCL
};

/// What MPI must allow: a communication thread's calls (MPI_THREAD_SERIALIZED), or with an LLM layout
/// several threads' at once (MPI_THREAD_MULTIPLE: tensor and pipeline messages beside the gradients').
int measure_thread_level(const MeasureOptions& options);

/// Returns the exit code. Throws InputError (identically on every rank) for a scenario it refuses.
int run_measure(const MeasureOptions& options, const MpiContext& context);

}  // namespace dtsim::runtime
