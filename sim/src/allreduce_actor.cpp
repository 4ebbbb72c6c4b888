#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <memory>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/collective_readiness.hpp"
#include "dtsim/sim/collectives.hpp"
#include "dtsim/sim/compression.hpp"
#include "dtsim/sim/compute_schedule.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

// In flow fidelity a ring phase is one aggregate flow to the next rank, which a rank can finish as soon as
// its two neighbours arrive; in the algorithm every rank's result needs every rank's data. Entering
// together keeps that dependency: no rank leaves a collective before the last one has arrived.
void enter_collective(SimulationContext& ctx, const sg4::BarrierPtr& flow_entry) {
    if (ctx.scenario.training.fidelity == Fidelity::flow) flow_entry->wait();
}

void allreduce(SimulationContext& ctx, int slot, const Ring& all, double bytes) {
    switch (ctx.scenario.training.strategy.algorithm) {
        case AllReduceAlgorithm::ring: return ring_allreduce(ctx, slot, all, bytes);
        case AllReduceAlgorithm::hierarchical: return hierarchical_allreduce(ctx, slot, all.me(), bytes);
        case AllReduceAlgorithm::tree: return tree_allreduce(ctx, slot, all, bytes);
        case AllReduceAlgorithm::halving_doubling: return halving_doubling_allreduce(ctx, slot, all, bytes);
        case AllReduceAlgorithm::direct: return direct_allreduce(ctx, slot, all, bytes);
    }
}

// Records a bucket's first collective, which this rank (whose data took `compute_s`) began at `start_s`:
// the part spent on the slowest rank's compute as a wait on that worker, the rest as communication.
void record_synchronised(SimulationContext& ctx, CollectiveReadiness& readiness, long long number, double compute_s,
                         int rank, const char* name, int iteration, int index, double start_s, double bytes) {
    const double waited_until = readiness.waited_until(number, compute_s, start_s, sg4::Engine::get_clock());
    if (waited_until > start_s)
        ctx.recorder.add(Span{rank, Lane::wait, "wait: slowest worker", iteration, index, start_s, waited_until, 0});
    ctx.record(rank, Lane::comm, name, iteration, index, waited_until, bytes);
}

// One rank of synchronous data-parallel training: gradient buckets are all-reduced one at a time, in
// the order backward produces them, each as soon as it is ready (a single communication stream).
void allreduce_rank(SimulationContext* ctx, std::shared_ptr<CollectiveReadiness> readiness, sg4::BarrierPtr flow_entry,
                    int rank, int slot) {
    const Ring ring{0, 1, ctx->workers, rank};
    auto& state = ctx->state(slot);
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        const double iteration_start = sg4::Engine::get_clock();
        const auto compute = schedule_compute(*ctx, rank, it, iteration_start);
        for (size_t k = 0; k < ctx->plan.buckets.size(); ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(compute.bucket_ready_s[k]);
            const auto bucket = compress_bucket(ctx->scenario, ctx->plan.buckets[k].bytes);
            const int index = static_cast<int>(k);
            compute_on_comm_stream(*ctx, rank, 1, "encode", it, index, bucket.encode_s);
            double start = sg4::Engine::get_clock();
            // Were communication instant, the data would be ready when backward and encoding end.
            const double ready = compute.bucket_ready_s[k] + bucket.encode_s;
            const long long number = readiness->ready(rank, ready - iteration_start, ready);
            state.waiting_for = "every rank to reach the collective";
            enter_collective(*ctx, flow_entry);
            if (bucket.sparse)  // top-k pairs cannot be summed in place: every rank gathers everyone's
                ring_pass(*ctx, slot, ring, bucket.first_bytes, ctx->workers - 1);
            else
                allreduce(*ctx, slot, ring, bucket.first_bytes);
            record_synchronised(*ctx, *readiness, number, ready - iteration_start, rank,
                                bucket.sparse ? "allgather" : "allreduce", it, index, start, bucket.first_bytes);
            if (bucket.second_bytes > 0) {  // PowerSGD's second factor
                start = sg4::Engine::get_clock();
                enter_collective(*ctx, flow_entry);
                allreduce(*ctx, slot, ring, bucket.second_bytes);
                ctx->record(rank, Lane::comm, "allreduce", it, index, start, bucket.second_bytes);
            }
            compute_on_comm_stream(*ctx, rank, 1, "decode", it, index, bucket.decode_s);
        }
        wait_until(compute.compute_end_s);
        ctx->recorder.iteration_done(rank, it, sg4::Engine::get_clock());
    }
    state.finished = true;
}

}  // namespace

void spawn_allreduce_actors(SimulationContext& ctx) {
    auto readiness = std::make_shared<CollectiveReadiness>(ctx.workers);
    auto flow_entry = sg4::Barrier::create(static_cast<unsigned>(ctx.workers));
    for (int rank = 0; rank < ctx.workers; ++rank) {
        const int slot = ctx.register_actor("rank " + std::to_string(rank));
        sg4::Actor::create("rank-" + std::to_string(rank), ctx.platform.gpu_hosts[static_cast<size_t>(rank)],
                           allreduce_rank, &ctx, readiness, flow_entry, rank, slot);
    }
}

}  // namespace dtsim::sim
