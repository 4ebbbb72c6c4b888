#pragma once
// Internal to the parameter-server actors: the stale-synchronous (ssp) bound, under which a worker may
// start iteration t only when the slowest has finished t - s - 1 (docs/architecture.md, "Parameter servers").
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include <vector>

#include "dtsim/scenario.hpp"

namespace dtsim::sim {

class StalenessBound {
public:
    /// Binds only where `sync` is ssp; counts iterations of `endpoints` endpoints from `first_iteration`.
    StalenessBound(SyncMode sync, int staleness, int endpoints, int first_iteration);

    /// SSP: blocks until the slowest endpoint has completed iteration `iteration - staleness - 1`.
    void wait_for_bound(int iteration);
    void iteration_completed(int endpoint);

private:
    int slowest() const;

    bool binds_;
    int staleness_;
    std::vector<int> completed_;  // iterations each endpoint has finished
    simgrid::s4u::MutexPtr mutex_ = simgrid::s4u::Mutex::create();
    simgrid::s4u::ConditionVariablePtr bound_changed_ = simgrid::s4u::ConditionVariable::create();
};

}  // namespace dtsim::sim
