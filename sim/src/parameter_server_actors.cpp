// Synchronous parameter server: gradients are partitioned by size over P servers (each bucket split in
// P equal shards, as BytePS-style partitioning does). Workers push each bucket's shards as soon as the
// bucket is ready, servers aggregate every arriving shard (a cost on the server host) and, once all
// workers' shards of a bucket are in, send the updated shard back to every worker.
//
// In `flow` fidelity the GPUs of a node talk to the servers as one endpoint: one flow per (node,
// server) carries all of the node's shards. The node's GPUs share its NIC either way; this keeps the
// number of flows in flight, which SimGrid's cost grows with, eight times smaller on 8-GPU nodes.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <algorithm>
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

// The workers that talk to the servers as one: a whole node in flow fidelity, else a single GPU.
struct Endpoint {
    int index = 0;       // endpoint number, also its pull mailbox
    int first_rank = 0;  // the GPUs rank_first .. rank_first + ranks - 1
    int ranks = 1;
};

int endpoint_size(const SimulationContext& ctx) {
    return ctx.scenario.training.fidelity == Fidelity::flow ? ctx.scenario.cluster.gpus_per_node : 1;
}

int endpoint_count(const SimulationContext& ctx) { return ctx.workers / endpoint_size(ctx); }

void worker_actor(SimulationContext* ctx, Endpoint endpoint, int slot) {
    const int servers = ctx->scenario.training.strategy.servers;
    const auto bucket_count = ctx->plan.buckets.size();
    auto* pulls = pull_mailbox(endpoint.index);
    pulls->set_receiver(sg4::Actor::self());  // shards are delivered as soon as servers send them
    auto& state = ctx->state(slot);
    // Records a communication span on every GPU of the endpoint.
    auto record_all = [&](const char* name, int it, int bucket, double start, double bytes) {
        for (int r = 0; r < endpoint.ranks; ++r) ctx->record(endpoint.first_rank + r, Lane::comm, name, it, bucket, start, bytes);
    };
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        const double iteration_start = sg4::Engine::get_clock();
        std::vector<double> ready(bucket_count, 0.0);
        double compute_end = 0;
        for (int r = 0; r < endpoint.ranks; ++r) {
            const auto compute = schedule_compute(*ctx, endpoint.first_rank + r, it, iteration_start);
            for (size_t k = 0; k < bucket_count; ++k) ready[k] = std::max(ready[k], compute.bucket_ready_s[k]);
            compute_end = std::max(compute_end, compute.compute_end_s);
        }
        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(ready[k]);
            const double start = sg4::Engine::get_clock();
            std::vector<sg4::CommPtr> sends;
            for (int p = 0; p < servers; ++p)
                sends.push_back(push_mailbox(p)->put_async(new ShardMessage{static_cast<int>(k), it},
                                                           static_cast<uint64_t>(endpoint.ranks * shard_bytes(*ctx, k))));
            state.waiting_for = "its pushes to the servers to complete";
            state.peer = -1;
            sg4::Comm::wait_all(sends);
            record_all("push", it, static_cast<int>(k), start, ctx->plan.buckets[k].bytes);
        }
        std::vector<int> shards_in(bucket_count, 0);
        double start = sg4::Engine::get_clock();
        for (size_t received = 0; received < bucket_count * static_cast<size_t>(servers); ++received) {
            state.waiting_for = "updated parameters from the servers";
            state.bucket = -1;
            std::unique_ptr<ShardMessage> message(pulls->get<ShardMessage>());
            const auto k = static_cast<size_t>(message->bucket);
            if (++shards_in[k] == servers) {
                record_all("pull", it, message->bucket, start, ctx->plan.buckets[k].bytes);
                start = sg4::Engine::get_clock();
            }
        }
        wait_until(compute_end);
        for (int r = 0; r < endpoint.ranks; ++r) ctx->recorder.iteration_done(endpoint.first_rank + r, it, sg4::Engine::get_clock());
    }
    pulls->set_receiver(nullptr);
    state.finished = true;
}

// Hands buckets whose aggregation completes (at `ready_s`) from a server's receiver to its sender.
struct ServerQueue {
    struct Entry {
        int bucket;
        double ready_s;
    };
    sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
    std::deque<Entry> buckets;
};

// A server sums shards one after another as they arrive. Nothing else runs on the server's processor,
// so when each sum ends is known on arrival; consecutive sums of one bucket are recorded as one span.
class Aggregator {
public:
    Aggregator(SimulationContext& ctx, int server_rank) : ctx_(ctx), rank_(server_rank) {}
    /// Returns when the shard arriving now is summed.
    double add(int iteration, int bucket, double arrival_s, double seconds, double bytes) {
        const double start = std::max(busy_until_, arrival_s);
        if (!(open_ && span_.iteration == iteration && span_.index == bucket && span_.end_s == start)) {
            flush();
            span_ = Span{rank_, Lane::compute, "aggregate", iteration, bucket, start, start, 0};
            open_ = true;
        }
        span_.end_s = start + seconds;
        span_.bytes += bytes;
        busy_until_ = span_.end_s;
        return busy_until_;
    }
    void flush() {
        if (open_ && span_.end_s > span_.start_s) ctx_.recorder.add(span_);
        open_ = false;
    }

private:
    SimulationContext& ctx_;
    int rank_;
    double busy_until_ = 0;
    bool open_ = false;
    Span span_;
};

void server_receiver_actor(SimulationContext* ctx, int server, std::shared_ptr<ServerQueue> queue, int slot) {
    const auto& strategy = ctx->scenario.training.strategy;
    const int server_rank = ctx->workers + server;
    auto* pushes = push_mailbox(server);
    pushes->set_receiver(sg4::Actor::self());
    auto& state = ctx->state(slot);
    const auto bucket_count = ctx->plan.buckets.size();
    Aggregator aggregator(*ctx, server_rank);
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        std::vector<int> arrived(bucket_count, 0);
        for (size_t m = 0; m < bucket_count * static_cast<size_t>(endpoint_count(*ctx)); ++m) {
            state.waiting_for = "gradient shards from the workers";
            std::unique_ptr<ShardMessage> message(pushes->get<ShardMessage>());
            const auto k = static_cast<size_t>(message->bucket);
            const double bytes = endpoint_size(*ctx) * shard_bytes(*ctx, k);
            const double seconds = strategy.aggregation_bytes_per_second ? bytes / *strategy.aggregation_bytes_per_second : 0;
            const double summed = aggregator.add(it, message->bucket, sg4::Engine::get_clock(), seconds, bytes);
            if (++arrived[k] == endpoint_count(*ctx)) {
                queue->buckets.push_back({message->bucket, summed});
                queue->ready->release();
            }
        }
    }
    aggregator.flush();
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
            const auto [k, ready_s] = queue->buckets.front();
            queue->buckets.pop_front();
            wait_until(ready_s);
            const double bytes = endpoint_size(*ctx) * shard_bytes(*ctx, static_cast<size_t>(k));
            const double start = sg4::Engine::get_clock();
            std::vector<sg4::CommPtr> sends;
            for (int e = 0; e < endpoint_count(*ctx); ++e)
                if (!ctx->lose_message_to(e * endpoint_size(*ctx)))
                    sends.push_back(pull_mailbox(e)->put_async(new ShardMessage{k, it}, static_cast<uint64_t>(bytes)));
            state.waiting_for = "its parameter sends to complete";
            sg4::Comm::wait_all(sends);
            ctx->record(server_rank, Lane::comm, "send", it, k, start, bytes * endpoint_count(*ctx));
        }
    }
    state.finished = true;
}

}  // namespace

void spawn_parameter_server_actors(SimulationContext& ctx) {
    const int size = endpoint_size(ctx);
    for (int e = 0; e < endpoint_count(ctx); ++e) {
        const Endpoint endpoint{e, e * size, size};
        const std::string ranks = size == 1 ? "rank " + std::to_string(e * size)
                                            : "ranks " + std::to_string(e * size) + "-" + std::to_string(e * size + size - 1);
        const int slot = ctx.register_actor(ranks);
        sg4::Actor::create("ps-worker-" + std::to_string(e), ctx.platform.gpu_hosts[static_cast<size_t>(e * size)],
                           worker_actor, &ctx, endpoint, slot);
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
