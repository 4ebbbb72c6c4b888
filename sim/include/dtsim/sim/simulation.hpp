#pragma once
// Runs one scenario in SimGrid and returns the predicted run.
//
// SimGrid's engine is process-wide: a second simulation in the same process would inherit the first
// one's clock and state. Call simulate() at most once per process (the CLI, a forked child, a test's
// child process).
#include <stdexcept>
#include <string>

#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/sim/simulation_progress.hpp"

namespace dtsim::sim {

/// Thrown when the simulated actors block each other forever; the message names the blocked actors.
class DeadlockError : public std::runtime_error {
public:
    explicit DeadlockError(const std::string& message) : std::runtime_error(message) {}
};

/// `progress`, if given, follows the simulated clock and the iterations completed (for a progress display).
Run simulate(const Scenario& scenario, SimulationProgress* progress = nullptr);

}  // namespace dtsim::sim
