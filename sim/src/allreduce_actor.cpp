#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <memory>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/backup_groups.hpp"
#include "dtsim/sim/collectives.hpp"
#include "dtsim/sim/compression.hpp"
#include "dtsim/sim/compute_schedule.hpp"
#include "dtsim/sim/faults.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

void allreduce(SimulationContext& ctx, int slot, const Ring& all, double bytes) {
    switch (ctx.scenario.training.strategy.algorithm) {
        case AllReduceAlgorithm::ring: return ring_allreduce(ctx, slot, all, bytes);
        case AllReduceAlgorithm::hierarchical: return hierarchical_allreduce(ctx, slot, all.me(), bytes);
        case AllReduceAlgorithm::tree: return tree_allreduce(ctx, slot, all, bytes);
        case AllReduceAlgorithm::halving_doubling: return halving_doubling_allreduce(ctx, slot, all, bytes);
        case AllReduceAlgorithm::direct: return direct_allreduce(ctx, slot, all, bytes);
    }
}

// Compression kernels run between a bucket's readiness and its communication, delaying it: recorded on
// the compute lane, taken on the communication actor's time.
void compute_on_comm_stream(SimulationContext& ctx, int rank, const char* name, int iteration, int index, double seconds) {
    if (seconds <= 0) return;
    const double start = sg4::Engine::get_clock();
    sg4::this_actor::sleep_for(seconds);
    ctx.record(rank, Lane::compute, name, iteration, index, start);
}

// One bucket's synchronisation among the ranks of `ring`.
void synchronise_bucket(SimulationContext& ctx, int slot, const Ring& ring, const CompressedBucket& bucket, int it, int index) {
    const int rank = ring.me();
    double start = sg4::Engine::get_clock();
    if (bucket.sparse) {  // top-k pairs cannot be summed in place: every rank gathers everyone's
        ring_pass(ctx, slot, ring, bucket.first_bytes, ring.count - 1);
        ctx.record(rank, Lane::comm, "allgather", it, index, start, bucket.first_bytes);
    } else {
        allreduce(ctx, slot, ring, bucket.first_bytes);
        ctx.record(rank, Lane::comm, "allreduce", it, index, start, bucket.first_bytes);
    }
    if (bucket.second_bytes > 0) {  // PowerSGD's second factor
        start = sg4::Engine::get_clock();
        allreduce(ctx, slot, ring, bucket.second_bytes);
        ctx.record(rank, Lane::comm, "allreduce", it, index, start, bucket.second_bytes);
    }
}

// One rank of synchronous data-parallel training: gradient buckets are all-reduced one at a time, in
// the order backward produces them, each as soon as it is ready (a single communication stream). The
// ring is the cohort's (every rank until a node is dropped), or with backup workers the bucket's group.
void allreduce_rank(SimulationContext* ctx, BackupGroups* backups, int rank, int slot) {
    const auto& ranks = ctx->cohort.ranks;
    const int position = static_cast<int>(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
    const Ring cohort{0, 1, static_cast<int>(ranks.size()), position, &ranks};
    auto& state = ctx->state(slot);
    await_restart(*ctx, rank, 1);
    for (int it = ctx->cohort.first_iteration; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        const auto compute = schedule_compute(*ctx, rank, it, sg4::Engine::get_clock());
        for (size_t k = 0; k < ctx->plan.buckets.size(); ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(compute.bucket_ready_s[k]);
            const auto bucket = compress_bucket(ctx->scenario, ctx->plan.buckets[k].bytes);
            const int index = static_cast<int>(k);
            compute_on_comm_stream(*ctx, rank, "encode", it, index, bucket.encode_s);
            if (!backups) {
                synchronise_bucket(*ctx, slot, cohort, bucket, it, index);
            } else if (const auto group = backups->join(rank, it, index); group.position < 0) {
                const double start = sg4::Engine::get_clock();
                state.waiting_for = "the reduced bucket of a step it was late for";
                backups->receive_result(rank, it, index);
                ctx->record(rank, Lane::comm, "late: receive result", it, index, start, bucket.first_bytes + bucket.second_bytes);
            } else {
                const Ring ring{0, 1, static_cast<int>(group.members->size()), group.position, group.members};
                synchronise_bucket(*ctx, slot, ring, bucket, it, index);
                if (group.position == 0) backups->send_result(group, it, index, bucket.first_bytes + bucket.second_bytes);
            }
            compute_on_comm_stream(*ctx, rank, "decode", it, index, bucket.decode_s);
        }
        wait_until(compute.compute_end_s);
        iteration_finished(*ctx, rank, 1, it);
    }
    state.finished = true;
}

}  // namespace

void spawn_allreduce_actors(SimulationContext& ctx) {
    auto backups = ctx.scenario.training.strategy.backup_workers > 0 ? std::make_shared<BackupGroups>(ctx) : nullptr;
    for (int rank : ctx.cohort.ranks) {
        const int slot = ctx.register_actor("rank " + std::to_string(rank));
        auto body = [&ctx, backups, rank, slot] { run_in_epoch(ctx, [&] { allreduce_rank(&ctx, backups.get(), rank, slot); }); };
        ctx.cohort.actors.push_back(
            sg4::Actor::create("rank-" + std::to_string(rank), ctx.platform.gpu_hosts[static_cast<size_t>(rank)], body));
    }
}

}  // namespace dtsim::sim
