#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "dtsim/sim/actors.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

void compute(double seconds) {
    if (seconds > 0) sg4::this_actor::execute(seconds * kHostSpeed);
}

void compute_actor(SimulationContext* ctx, int rank, int slot) {
    const auto& model = ctx->scenario.model;
    const auto& buckets = ctx->plan.buckets;
    const bool overlap = ctx->scenario.training.strategy.overlap;
    auto& state = ctx->state(slot);
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        if (it > 0) {
            // The next forward needs the updated parameters: wait for this rank's synchronisation.
            state.waiting_for = "the previous iteration's gradient synchronisation";
            ctx->iteration_synced[static_cast<size_t>(rank)]->acquire();
        }
        double start = sg4::Engine::get_clock();
        compute(model.forward_s());
        ctx->record(rank, Lane::compute, "forward", it, 0, start);
        for (size_t k = 0; k < buckets.size(); ++k) {
            start = sg4::Engine::get_clock();
            compute(buckets[k].backward_s);
            ctx->record(rank, Lane::compute, "backward", it, static_cast<int>(k), start);
            if (overlap) ctx->bucket_ready[static_cast<size_t>(rank)]->release();
        }
        start = sg4::Engine::get_clock();
        compute(ctx->plan.trailing_backward_s);
        ctx->record(rank, Lane::compute, "backward", it, static_cast<int>(buckets.size()), start);
        if (!overlap)
            for (size_t k = 0; k < buckets.size(); ++k) ctx->bucket_ready[static_cast<size_t>(rank)]->release();
    }
    state.finished = true;
}

}  // namespace

void spawn_compute_actors(SimulationContext& ctx) {
    for (int rank = 0; rank < ctx.workers; ++rank) {
        const int slot = ctx.register_actor("rank " + std::to_string(rank) + " compute");
        sg4::Actor::create("compute-" + std::to_string(rank), ctx.platform.gpu_hosts[static_cast<size_t>(rank)],
                           compute_actor, &ctx, rank, slot);
    }
}

}  // namespace dtsim::sim
