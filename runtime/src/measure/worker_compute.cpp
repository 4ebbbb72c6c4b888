#include "worker_compute.hpp"

#include "busy_compute.hpp"
#include "dtsim/straggler_model.hpp"

namespace dtsim::runtime {

void compute_iteration(MeasureSetup& setup, int iteration, const std::function<void(int bucket)>& bucket_ready) {
    const auto& buckets = setup.plan.buckets;
    const auto effect = compute_effect(setup.scenario, setup.rank, iteration);  // the simulator's draws, seeded alike
    auto timed = [&](const char* name, int index, double seconds) {
        if (seconds <= 0) return;
        const double start = setup.clock.now();
        busy_wait(seconds);
        setup.log.add(Lane::compute, name, iteration, index, start, setup.clock.now());
    };
    timed("pause", 0, effect.pause_s);
    timed("forward", 0, setup.scenario.model.forward_s() * effect.factor + effect.extra_s);
    const bool overlap = setup.scenario.training.strategy.overlap;
    for (size_t k = 0; k < buckets.size(); ++k) {
        timed("backward", static_cast<int>(k), buckets[k].backward_s * effect.factor);
        if (overlap) bucket_ready(static_cast<int>(k));
    }
    timed("backward", static_cast<int>(buckets.size()), setup.plan.trailing_backward_s * effect.factor);
    if (!overlap)
        for (size_t k = 0; k < buckets.size(); ++k) bucket_ready(static_cast<int>(k));
}

}  // namespace dtsim::runtime
