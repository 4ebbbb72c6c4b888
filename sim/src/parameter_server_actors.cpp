// Synchronous parameter server: gradients are partitioned by size over P servers (each bucket split in
// P equal shards, as BytePS-style partitioning does). Workers push each bucket's shards as soon as the
// bucket is ready, servers aggregate every arriving shard (a cost on the server host) and, once all
// workers' shards of a bucket are in, send the updated shard back to every worker.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <deque>
#include <memory>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/compute_schedule.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

struct ShardMessage {
    int bucket;
    int iteration;
};

sg4::Mailbox* push_mailbox(int server) { return sg4::Mailbox::by_name("ps-push-" + std::to_string(server)); }
sg4::Mailbox* pull_mailbox(int worker) { return sg4::Mailbox::by_name("ps-pull-" + std::to_string(worker)); }

double shard_bytes(const SimulationContext& ctx, size_t bucket) {
    return ctx.plan.buckets[bucket].bytes / ctx.scenario.training.strategy.servers;
}

void worker_actor(SimulationContext* ctx, int rank, int slot) {
    const int servers = ctx->scenario.training.strategy.servers;
    const auto bucket_count = ctx->plan.buckets.size();
    auto* pulls = pull_mailbox(rank);
    pulls->set_receiver(sg4::Actor::self());  // shards are delivered as soon as servers send them
    auto& state = ctx->state(slot);
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        const auto compute = schedule_compute(*ctx, rank, it, sg4::Engine::get_clock());
        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(compute.bucket_ready_s[k]);
            const double start = sg4::Engine::get_clock();
            std::vector<sg4::CommPtr> sends;
            for (int p = 0; p < servers; ++p)
                sends.push_back(push_mailbox(p)->put_async(new ShardMessage{static_cast<int>(k), it},
                                                           static_cast<uint64_t>(shard_bytes(*ctx, k))));
            state.waiting_for = "its pushes to the servers to complete";
            sg4::Comm::wait_all(sends);
            ctx->record(rank, Lane::comm, "push", it, static_cast<int>(k), start, ctx->plan.buckets[k].bytes);
        }
        std::vector<int> shards_in(bucket_count, 0);
        double start = sg4::Engine::get_clock();
        for (size_t received = 0; received < bucket_count * static_cast<size_t>(servers); ++received) {
            state.waiting_for = "updated parameters from the servers";
            state.bucket = -1;
            std::unique_ptr<ShardMessage> message(pulls->get<ShardMessage>());
            if (++shards_in[static_cast<size_t>(message->bucket)] == servers) {
                ctx->record(rank, Lane::comm, "pull", it, message->bucket, start,
                            ctx->plan.buckets[static_cast<size_t>(message->bucket)].bytes);
                start = sg4::Engine::get_clock();
            }
        }
        wait_until(compute.compute_end_s);
        ctx->recorder.iteration_done(rank, it, sg4::Engine::get_clock());
    }
    pulls->set_receiver(nullptr);
    state.finished = true;
}

// Hands buckets whose aggregation is complete from a server's receiver to its sender.
struct ServerQueue {
    sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
    std::deque<int> buckets;
};

void server_receiver_actor(SimulationContext* ctx, int server, std::shared_ptr<ServerQueue> queue, int slot) {
    const auto& strategy = ctx->scenario.training.strategy;
    const int server_rank = ctx->workers + server;
    auto* pushes = push_mailbox(server);
    pushes->set_receiver(sg4::Actor::self());
    auto& state = ctx->state(slot);
    const auto bucket_count = ctx->plan.buckets.size();
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        std::vector<int> arrived(bucket_count, 0);
        for (size_t m = 0; m < bucket_count * static_cast<size_t>(ctx->workers); ++m) {
            state.waiting_for = "gradient shards from the workers";
            std::unique_ptr<ShardMessage> message(pushes->get<ShardMessage>());
            const auto k = static_cast<size_t>(message->bucket);
            if (strategy.aggregation_bytes_per_second) {
                const double start = sg4::Engine::get_clock();
                sg4::this_actor::execute(shard_bytes(*ctx, k) / *strategy.aggregation_bytes_per_second * kHostSpeed);
                ctx->record(server_rank, Lane::compute, "aggregate", it, message->bucket, start, shard_bytes(*ctx, k));
            }
            if (++arrived[k] == ctx->workers) {
                queue->buckets.push_back(message->bucket);
                queue->ready->release();
            }
        }
    }
    pushes->set_receiver(nullptr);
    state.finished = true;
}

void server_sender_actor(SimulationContext* ctx, int server, std::shared_ptr<ServerQueue> queue, int slot) {
    const int server_rank = ctx->workers + server;
    auto& state = ctx->state(slot);
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        for (size_t j = 0; j < ctx->plan.buckets.size(); ++j) {
            state.waiting_for = "a bucket to finish aggregating";
            queue->ready->acquire();
            const int k = queue->buckets.front();
            queue->buckets.pop_front();
            const double bytes = shard_bytes(*ctx, static_cast<size_t>(k));
            const double start = sg4::Engine::get_clock();
            std::vector<sg4::CommPtr> sends;
            for (int w = 0; w < ctx->workers; ++w)
                if (!ctx->lose_message_to(w))
                    sends.push_back(pull_mailbox(w)->put_async(new ShardMessage{k, it}, static_cast<uint64_t>(bytes)));
            state.waiting_for = "its parameter sends to complete";
            sg4::Comm::wait_all(sends);
            ctx->record(server_rank, Lane::comm, "send", it, k, start, bytes * ctx->workers);
        }
    }
    state.finished = true;
}

}  // namespace

void spawn_parameter_server_actors(SimulationContext& ctx) {
    for (int rank = 0; rank < ctx.workers; ++rank) {
        const int slot = ctx.register_actor("rank " + std::to_string(rank));
        sg4::Actor::create("ps-worker-" + std::to_string(rank), ctx.platform.gpu_hosts[static_cast<size_t>(rank)],
                           worker_actor, &ctx, rank, slot);
    }
    for (int p = 0; p < ctx.scenario.training.strategy.servers; ++p) {
        auto queue = std::make_shared<ServerQueue>();
        auto* host = ctx.platform.server_hosts[static_cast<size_t>(p)];
        const int receiver_slot = ctx.register_actor("server " + std::to_string(p) + " receiver");
        sg4::Actor::create("ps-server-" + std::to_string(p), host, server_receiver_actor, &ctx, p, queue, receiver_slot);
        const int sender_slot = ctx.register_actor("server " + std::to_string(p) + " sender");
        sg4::Actor::create("ps-sender-" + std::to_string(p), host, server_sender_actor, &ctx, p, queue, sender_slot);
    }
}

}  // namespace dtsim::sim
