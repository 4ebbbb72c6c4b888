#pragma once
// Starts SimGrid's engine with dtsim's settings. The engine is process-wide: start it at most once per
// process (see simulation.hpp).
#include <simgrid/s4u/Engine.hpp>

#include <memory>

#include "dtsim/scenario.hpp"

namespace dtsim::sim {

/// An engine configured for `actors` actors and the network model: small stacks, exact bandwidth
/// sharing, SimGrid's own logging silenced.
std::unique_ptr<simgrid::s4u::Engine> start_engine(int actors, NetworkModel model);

}  // namespace dtsim::sim
