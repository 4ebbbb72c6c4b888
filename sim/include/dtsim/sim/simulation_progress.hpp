#pragma once
// How far a running simulation has got, for a progress display. The simulation updates it as its clock
// advances and never prints; any thread may read it while the simulation runs.
#include <atomic>

namespace dtsim::sim {

struct SimulationProgress {
    std::atomic<double> simulated_s{0};  // the simulated clock
    std::atomic<long long> events{0};    // times the simulated clock advanced: SimGrid's steps
    std::atomic<int> done{0};            // iterations (or replayed collectives) completed
    std::atomic<int> total{0};           // of how many
};

/// Keeps `progress` (if given) up to date with the clock of the engine started in this process, out of
/// `total` units of work.
void report_progress_to(SimulationProgress* progress, int total);

}  // namespace dtsim::sim
