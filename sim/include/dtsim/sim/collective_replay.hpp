#pragma once
// Replays single collectives on a scenario's platform, one after another in one simulation, for
// comparing the simulator with calibration measurements (`dtsim fit --validate`), or for timing one collective
// on a simulated cluster (`dtsim collective`). Each collective uses the algorithm the calibration pinned
// (dtsim-runtime's open_mpi_tuning): ring all-reduce, all-gather and reduce-scatter, binomial broadcast, linear
// all-to-all (every send and receive at once); in ReplayMode::scenario the all-reduce is the scenario's.
#include <string>
#include <vector>

#include "dtsim/network_ops.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/sim/simulation_progress.hpp"

namespace dtsim::sim {

struct CollectiveTrial {
    NetworkOp op = NetworkOp::allreduce;  // a collective: allreduce, allgather, reducescatter, broadcast, alltoall
    double bytes = 0;   // nccl-tests size semantics, as in the calibration samples
    int ranks = 2;      // the first `ranks` ranks of the cluster take part
};

/// How the trials run. `calibration`: with the algorithms the calibration pinned, each pass's first step
/// from quiet links and the ports shared perfectly (the replay's own error, `dtsim fit --validate`).
/// `scenario`: as a training run of the scenario would run them (its all-reduce algorithm, the profile's
/// incast), an nccl-tests-like benchmark of the simulated cluster (`dtsim collective`).
enum class ReplayMode { calibration, scenario };

/// Simulated time of each trial: from a common start to the last taking-part rank's finish. Starts the
/// process's SimGrid engine (once per process, as simulate()). `progress`, if given, counts the trials done.
std::vector<double> simulate_collectives(const Scenario& scenario, const std::vector<CollectiveTrial>& trials,
                                         SimulationProgress* progress = nullptr, ReplayMode mode = ReplayMode::calibration);

}  // namespace dtsim::sim
