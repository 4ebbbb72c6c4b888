#include "dtsim/sim/compute_schedule.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>

#include "dtsim/straggler_model.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

IterationCompute schedule_compute(SimulationContext& ctx, int rank, int iteration, double start_s) {
    const auto& buckets = ctx.plan.buckets;
    const auto effect = compute_effect(ctx.scenario, rank, iteration);
    IterationCompute result;
    double t = start_s;
    auto span = [&](const char* name, int index, double duration) {
        if (duration > 0) ctx.recorder.add(Span{rank, Lane::compute, name, iteration, index, t, t + duration, 0});
        t += duration;
    };
    span("pause", 0, effect.pause_s);
    span("forward", 0, ctx.costs.forward_s() * effect.factor + effect.extra_s);
    // Gradient accumulation: every micro-batch but the last only accumulates its gradients locally (DDP's
    // no_sync), so its backward overlaps nothing; the last one's is the one split into buckets.
    for (int micro = 1; micro < ctx.scenario.training.accumulation_steps; ++micro) {
        span("backward", 0, ctx.costs.backward_s() * effect.factor);
        span("forward", micro, ctx.costs.forward_s() * effect.factor);
    }
    for (size_t k = 0; k < buckets.size(); ++k) {
        span("backward", static_cast<int>(k), buckets[k].backward_s * effect.factor);
        result.bucket_ready_s.push_back(t);
    }
    span("backward", static_cast<int>(buckets.size()), ctx.plan.trailing_backward_s * effect.factor);
    result.compute_end_s = t;
    if (!ctx.scenario.training.strategy.overlap)
        for (auto& ready : result.bucket_ready_s) ready = t;
    return result;
}

void compute_on_comm_stream(SimulationContext& ctx, int first_rank, int ranks, const char* name, int iteration, int index,
                            double seconds, bool between_transfers) {
    if (seconds <= 0) return;
    const double start = sg4::Engine::get_clock();
    if (auto* pool = between_transfers ? nullptr : ctx.platform.cpu_pool_of(first_rank))
        sg4::this_actor::exec_init(seconds * kPoolCoreSpeed)->set_host(pool)->wait();
    else
        sg4::this_actor::sleep_for(seconds);
    for (int r = first_rank; r < first_rank + ranks; ++r) ctx.record(r, Lane::compute, name, iteration, index, start);
}

void wait_until(double time_s) {
    const double now = sg4::Engine::get_clock();
    if (time_s > now) sg4::this_actor::sleep_for(time_s - now);
}

}  // namespace dtsim::sim
