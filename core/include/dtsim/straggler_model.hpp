#pragma once
// What `training.stragglers` does to one rank's compute in one iteration. Each (rank, iteration) draws
// from its own generator seeded from the scenario's seed, so results do not depend on the order in which
// actors run, and another seed gives other draws. A measured run injects the same effects.
#include "dtsim/scenario.hpp"

namespace dtsim {

struct ComputeEffect {
    double factor = 1;   // on forward and backward times: slowdown × jitter factor
    double extra_s = 0;  // added to forward (exponential jitter)
    double pause_s = 0;  // a stall before the iteration's compute
};

ComputeEffect compute_effect(const Scenario& scenario, int rank, int iteration);

}  // namespace dtsim
