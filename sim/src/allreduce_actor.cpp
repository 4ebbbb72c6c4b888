#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/backup_groups.hpp"
#include "dtsim/sim/calibrated_collectives.hpp"
#include "dtsim/sim/collective_readiness.hpp"
#include "dtsim/sim/collectives.hpp"
#include "dtsim/sim/compression.hpp"
#include "dtsim/sim/compute_schedule.hpp"
#include "dtsim/sim/faults.hpp"
#include "dtsim/straggler_model.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

// Records a bucket's first collective, which this rank (whose data took `compute_s`) began at `start_s`:
// the part spent on the slowest rank's compute as a wait on that worker, the rest as communication.
void record_synchronised(SimulationContext& ctx, CollectiveReadiness& readiness, long long number, double compute_s,
                         int rank, const char* name, int iteration, int index, double start_s, double bytes) {
    const double waited_until = readiness.waited_until(number, compute_s, start_s, sg4::Engine::get_clock());
    if (waited_until > start_s)
        ctx.recorder.add(Span{rank, Lane::wait, "wait: slowest worker", iteration, index, start_s, waited_until, 0});
    ctx.record(rank, Lane::comm, name, iteration, index, waited_until, bytes);
}

// What the ranks of one epoch's all-reduce share.
struct Collectives {
    Collectives(const SimulationContext& ctx, int ranks)
        : readiness(ranks, ctx.workers),
          // With backup workers a group forms only when its last member is ready, which is the same rendezvous.
          flow_barrier(ctx.scenario.training.fidelity == Fidelity::flow && ctx.scenario.training.strategy.backup_workers == 0
                           ? sg4::Barrier::create(static_cast<unsigned>(ranks))
                           : nullptr) {
        for (const auto& bucket : ctx.plan.buckets) compressed.push_back(compress_bucket(ctx.scenario, ctx.costs, bucket.bytes));
    }
    CollectiveReadiness readiness;
    sg4::BarrierPtr flow_barrier;  // flow fidelity: the ranks start and end each collective together (run_together)
    std::unique_ptr<BackupGroups> backups;
    std::vector<CompressedBucket> compressed;  // per bucket of the plan, the same for every rank and iteration
};

const char* first_collective_name(const CompressedBucket& bucket) { return bucket.sparse ? "allgather" : "allreduce"; }

// A bucket's first collective among the ranks of `ring`.
void first_collective(const Actor& actor, const RankGroup& ring, const CompressedBucket& bucket,
                      const sg4::BarrierPtr& flow_barrier) {
    const auto algorithm = actor.ctx.scenario.training.strategy.algorithm;
    run_together(actor, flow_barrier, bucket.sparse || runs_ring_passes(algorithm), [&] {
        if (bucket.sparse)  // top-k pairs cannot be summed in place: every rank gathers everyone's
            ring_pass(actor, ring, bucket.first_bytes, ring.count - 1,
                      calibrated_extra_step_s(actor.ctx, NetworkOp::allgather, ring, bucket.first_bytes * ring.count, ring.count - 1));
        else
            scenario_allreduce(actor, ring, bucket.first_bytes);
    });
}

// PowerSGD's second factor, when the bucket has one.
void second_collective(const Actor& actor, const RankGroup& ring, const CompressedBucket& bucket,
                       const sg4::BarrierPtr& flow_barrier, int it, int index) {
    if (bucket.second_bytes <= 0) return;
    const double start = sg4::Engine::get_clock();
    run_together(actor, flow_barrier, runs_ring_passes(actor.ctx.scenario.training.strategy.algorithm),
                 [&] { scenario_allreduce(actor, ring, bucket.second_bytes); });
    actor.ctx.record(ring.me(), Lane::comm, "allreduce", it, index, start, bucket.second_bytes);
}

// One bucket with backup workers: the first N - b ranks ready all-reduce it, a later one receives the result.
void synchronise_with_backups(const Actor& actor, BackupGroups& backups, int rank, const CompressedBucket& bucket, int it,
                              int index) {
    auto& ctx = actor.ctx;
    const double start = sg4::Engine::get_clock();
    actor.waits_for("the first N - b workers to be ready");
    const auto group = backups.join(rank, it, index);
    if (group.position < 0) {
        actor.waits_for("the reduced bucket of a step it was late for");
        backups.receive_result(rank, it, index);
        ctx.record(rank, Lane::comm, "late: receive result", it, index, start, bucket.first_bytes + bucket.second_bytes);
        return;
    }
    // The group forms when its last member is ready: until then a member waits on that worker.
    const double formed = sg4::Engine::get_clock();
    if (formed > start) ctx.recorder.add(Span{rank, Lane::wait, "wait: slowest worker", it, index, start, formed, 0});
    const RankGroup ring{0, 1, static_cast<int>(group.members->size()), group.position, group.members};
    first_collective(actor, ring, bucket, nullptr);
    ctx.record(rank, Lane::comm, first_collective_name(bucket), it, index, formed, bucket.first_bytes);
    second_collective(actor, ring, bucket, nullptr, it, index);
    if (group.position == 0) backups.send_result(group, it, index, bucket.first_bytes + bucket.second_bytes);
}

// One rank of synchronous data-parallel training: gradient buckets are all-reduced one at a time, in
// the order backward produces them, each as soon as it is ready (a single communication stream). The
// ring is the cohort's (every rank until a node is dropped), or with backup workers the bucket's group.
void allreduce_rank(SimulationContext* ctx, std::shared_ptr<Collectives> shared, int rank, int slot) {
    const auto& ranks = ctx->cohort.ranks;
    const int position = static_cast<int>(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
    const RankGroup cohort{0, 1, static_cast<int>(ranks.size()), position, &ranks};
    const Actor actor{*ctx, slot};
    auto& state = ctx->state(slot);
    await_restart(*ctx, rank, 1);
    for (int it = ctx->cohort.first_iteration; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        const double iteration_start = sg4::Engine::get_clock();
        const auto compute = schedule_compute(*ctx, rank, it, iteration_start);
        for (size_t k = 0; k < ctx->plan.buckets.size(); ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(compute.bucket_ready_s[k]);
            const auto& bucket = shared->compressed[k];
            const int index = static_cast<int>(k);
            compute_on_comm_stream(*ctx, rank, 1, "encode", it, index, bucket.encode_s, bucket.coded_in_ring);
            if (shared->backups) {
                synchronise_with_backups(actor, *shared->backups, rank, bucket, it, index);
            } else {
                const double start = sg4::Engine::get_clock();
                // Were communication instant, the data would be ready when backward and encoding end.
                const double ready = compute.bucket_ready_s[k] + bucket.encode_s;
                const long long number = shared->readiness.ready(rank, ready - iteration_start, ready);
                state.waiting_for = "every rank to reach the collective";
                first_collective(actor, cohort, bucket, shared->flow_barrier);
                record_synchronised(*ctx, shared->readiness, number, ready - iteration_start, rank,
                                    first_collective_name(bucket), it, index, start, bucket.first_bytes);
                second_collective(actor, cohort, bucket, shared->flow_barrier, it, index);
            }
            compute_on_comm_stream(*ctx, rank, 1, "decode", it, index, bucket.decode_s, bucket.coded_in_ring);
        }
        wait_until(compute.compute_end_s);
        // The update needs every bucket's reduced gradient: it runs after the last collective (DDP's
        // optimizer.step() once backward has returned), at this rank's compute speed.
        if (const double step_s = ctx->costs.optimizer_step_s(); step_s > 0) {
            const double start = sg4::Engine::get_clock();
            sg4::this_actor::sleep_for(step_s * compute_effect(ctx->scenario, rank, it).factor);
            ctx->record(rank, Lane::compute, "optimizer", it, 0, start);
        }
        iteration_finished(*ctx, rank, 1, it);
    }
    state.finished = true;
}

}  // namespace

void spawn_allreduce_actors(SimulationContext& ctx) {
    auto shared = std::make_shared<Collectives>(ctx, static_cast<int>(ctx.cohort.ranks.size()));
    if (ctx.scenario.training.strategy.backup_workers > 0) shared->backups = std::make_unique<BackupGroups>(ctx);
    for (int rank : ctx.cohort.ranks) {
        const int slot = ctx.register_actor("rank " + std::to_string(rank));
        auto body = [&ctx, shared, rank, slot] { run_in_epoch(ctx, [&] { allreduce_rank(&ctx, shared, rank, slot); }); };
        ctx.cohort.actors.push_back(
            sg4::Actor::create("rank-" + std::to_string(rank), ctx.platform.gpu_hosts[static_cast<size_t>(rank)], body));
    }
}

}  // namespace dtsim::sim
