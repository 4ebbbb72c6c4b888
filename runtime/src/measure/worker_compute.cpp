#include "worker_compute.hpp"

#include "modelled_timeline.hpp"
#include "dtsim/straggler_model.hpp"

namespace dtsim::runtime {

void compute_iteration(MeasureSetup& setup, int iteration, const std::function<void(int bucket)>& bucket_ready) {
    const auto& buckets = setup.plan.buckets;
    const auto effect = compute_effect(setup.scenario, setup.rank, iteration);  // the simulator's draws, seeded alike
    auto record = [&](const char* name, int index, double start) {
        setup.log.add(Lane::compute, name, iteration, index, start, setup.clock.now());
    };
    ModelledTimeline timeline(setup, iteration);
    auto modelled = [&](const char* name, int index, double seconds) { timeline.run(name, index, seconds); };
    std::size_t next_layer = setup.gemms ? setup.gemms->layers() : 0;  // backward walks the layers in reverse
    auto gemm_backward = [&](const char* name, int index, int layers) {
        if (layers == 0) return;
        const double start = setup.clock.now();
        for (int l = 0; l < layers; ++l) setup.gemms->backward(--next_layer);
        setup.device->hold((effect.factor - 1) * (setup.clock.now() - start));
        record(name, index, start);
    };

    modelled("pause", 0, effect.pause_s);
    if (setup.gemms) {
        const double start = setup.clock.now();
        for (std::size_t l = 0; l < setup.gemms->layers(); ++l) setup.gemms->forward(l);
        setup.device->hold((effect.factor - 1) * (setup.clock.now() - start) + effect.extra_s);
        record("forward", 0, start);
    } else {
        modelled("forward", 0, setup.costs.forward_s() * effect.factor + effect.extra_s);
    }
    const bool overlap = setup.scenario.training.strategy.overlap;
    for (size_t k = 0; k < buckets.size(); ++k) {
        if (setup.gemms)
            gemm_backward("backward", static_cast<int>(k), buckets[k].layers);
        else
            modelled("backward", static_cast<int>(k), buckets[k].backward_s * effect.factor);
        if (overlap) bucket_ready(static_cast<int>(k));
    }
    if (setup.gemms)
        gemm_backward("backward", static_cast<int>(buckets.size()), setup.plan.trailing_layers);
    else
        modelled("backward", static_cast<int>(buckets.size()), setup.plan.trailing_backward_s * effect.factor);
    if (!overlap)
        for (size_t k = 0; k < buckets.size(); ++k) bucket_ready(static_cast<int>(k));
}

}  // namespace dtsim::runtime
