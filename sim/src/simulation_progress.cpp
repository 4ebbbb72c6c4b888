#include "dtsim/sim/simulation_progress.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace dtsim::sim {

void report_progress_to(SimulationProgress* progress, int total) {
    if (!progress) return;
    progress->total = total;
    // Called once per step of the engine: two relaxed stores, nothing that would slow a large simulation.
    simgrid::s4u::Engine::on_time_advance_cb([progress](double) {
        progress->simulated_s.store(simgrid::s4u::Engine::get_clock(), std::memory_order_relaxed);
        progress->events.fetch_add(1, std::memory_order_relaxed);
    });
}

}  // namespace dtsim::sim
