#pragma once
// `dtsim-runtime calibrate`: runs the calibration plan on every rank and writes DIR/samples.jsonl and
// DIR/environment.json (rank 0), printing nccl-tests-style tables as samples are taken.
#include <map>
#include <string>

#include "dtsim/calibrate/plan.hpp"
#include "mpi_context.hpp"

namespace dtsim::runtime {

struct CalibrateOptions {
    std::string backend = "mpi";
    std::string out;
    bool resume = false;
    bool print_plan = false;
    double target_seconds = 0;  // 0: 0.02 s per sample with --quick, else 0.2 s
    calibrate::PlanOptions plan;
    std::string command_line;
    std::map<std::string, std::string> pinned_algorithms;  // MPI backend: what the collectives were pinned to
    std::map<std::string, std::string> mpi_transport;      // Open MPI TCP settings in effect (open_mpi_tuning.hpp)
};

/// Returns the process exit code; rank 0 prints every message. Collective over all ranks.
int run_calibrate(const CalibrateOptions& options, const MpiContext& context);

}  // namespace dtsim::runtime
