// Synchronous parameter server: gradients are partitioned by size over P servers (each bucket split in
// P equal shards, as BytePS-style partitioning does). Workers push each bucket's shards as soon as the
// bucket is ready, servers aggregate every arriving shard (a cost on the server's processor) and, once
// all workers' shards of a bucket are in, send the updated shard back to every worker.
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

int g_token = 0;  // payload of parameter messages: only their simulated size matters

// The workers that talk to the servers as one: a whole node in flow fidelity, else a single GPU.
struct Endpoint {
    int index = 0;       // endpoint number
    int first_rank = 0;  // the GPUs first_rank .. first_rank + ranks - 1
    int ranks = 1;
};

// A server sums shards one after another as they arrive. Nothing else runs on its processor, so when
// each sum ends is known on arrival; consecutive sums of one bucket are recorded as one span.
class Aggregator {
public:
    /// Returns when the shard arriving now is summed.
    double add(SimulationContext& ctx, int server_rank, int iteration, int bucket, double seconds, double bytes) {
        const double start = std::max(busy_until_, sg4::Engine::get_clock());
        if (!(open_ && span_.iteration == iteration && span_.index == bucket && span_.end_s == start)) {
            flush(ctx);
            span_ = Span{server_rank, Lane::compute, "aggregate", iteration, bucket, start, start, 0};
            open_ = true;
        }
        span_.end_s = start + seconds;
        span_.bytes += bytes;
        busy_until_ = span_.end_s;
        return busy_until_;
    }
    void flush(SimulationContext& ctx) {
        if (open_ && span_.end_s > span_.start_s) ctx.recorder.add(span_);
        open_ = false;
    }

private:
    double busy_until_ = 0;
    bool open_ = false;
    Span span_;
};

struct Server {
    struct Ready {
        int bucket;
        double ready_s;  // when its aggregation ends
    };
    Aggregator aggregator;
    std::vector<int> arrived;  // shards of the current iteration, per bucket
    sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
    std::deque<Ready> queue;  // aggregated buckets, for the sender
};

class ParameterServers {
public:
    explicit ParameterServers(SimulationContext& ctx)
        : ctx_(ctx),
          endpoint_size_(ctx.scenario.training.fidelity == Fidelity::flow ? ctx.scenario.cluster.gpus_per_node : 1),
          servers_(static_cast<size_t>(ctx.scenario.training.strategy.servers)),
          pull_mailboxes_(servers_.size() * static_cast<size_t>(endpoint_count()), nullptr) {
        for (auto& server : servers_) server.arrived.assign(ctx.plan.buckets.size(), 0);
    }

    int endpoint_size() const { return endpoint_size_; }
    int endpoint_count() const { return ctx_.workers / endpoint_size_; }
    int server_count() const { return static_cast<int>(servers_.size()); }
    /// Bytes one endpoint exchanges with one server for a bucket.
    double shard_bytes(size_t bucket) const { return endpoint_size_ * ctx_.plan.buckets[bucket].bytes / server_count(); }
    sg4::Host* server_host(int p) const { return ctx_.platform.server_hosts[static_cast<size_t>(p)]; }
    /// Where server `server` sends its updated shards for `endpoint`; looked up once per pair.
    sg4::Mailbox* pull_mailbox(int server, int endpoint) {
        auto& slot = pull_mailboxes_[static_cast<size_t>(server) * static_cast<size_t>(endpoint_count()) + static_cast<size_t>(endpoint)];
        if (!slot) slot = sg4::Mailbox::by_name("ps-pull-" + std::to_string(server) + ">" + std::to_string(endpoint));
        return slot;
    }

    /// A push of `bucket` reached server `p`: aggregate it, and hand the bucket to the sender when complete.
    void shard_arrived(int p, int iteration, int bucket) {
        auto& server = servers_[static_cast<size_t>(p)];
        const auto& rate = ctx_.scenario.training.strategy.aggregation_bytes_per_second;
        const double bytes = shard_bytes(static_cast<size_t>(bucket));
        const double summed = server.aggregator.add(ctx_, ctx_.workers + p, iteration, bucket, rate ? bytes / *rate : 0, bytes);
        if (++server.arrived[static_cast<size_t>(bucket)] < endpoint_count()) return;
        server.arrived[static_cast<size_t>(bucket)] = 0;
        server.aggregator.flush(ctx_);
        server.queue.push_back({bucket, summed});
        server.ready->release();
    }

    Server::Ready next_aggregated(int p) {
        auto& server = servers_[static_cast<size_t>(p)];
        server.ready->acquire();
        const auto next = server.queue.front();
        server.queue.pop_front();
        return next;
    }

private:
    SimulationContext& ctx_;
    int endpoint_size_;
    std::vector<Server> servers_;
    std::vector<sg4::Mailbox*> pull_mailboxes_;  // [server * endpoints + endpoint], sized up front
};

void worker_actor(SimulationContext* ctx, std::shared_ptr<ParameterServers> ps, Endpoint endpoint, int slot) {
    const auto bucket_count = ctx->plan.buckets.size();
    const int servers = ps->server_count();
    auto* host = ctx->platform.gpu_hosts[static_cast<size_t>(endpoint.first_rank)];
    auto& state = ctx->state(slot);
    // Records a communication span on every GPU of the endpoint.
    auto record_all = [&](const char* name, int it, size_t bucket, double start) {
        for (int r = 0; r < endpoint.ranks; ++r)
            ctx->record(endpoint.first_rank + r, Lane::comm, name, it, static_cast<int>(bucket), start, ctx->plan.buckets[bucket].bytes);
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
        // Every updated shard of the iteration is expected from the start, so servers' sends flow at once.
        std::vector<sg4::CommPtr> pulls;
        std::vector<int*> payloads(bucket_count * static_cast<size_t>(servers), nullptr);
        for (size_t k = 0; k < bucket_count; ++k)
            for (int p = 0; p < servers; ++p)
                pulls.push_back(ps->pull_mailbox(p, endpoint.index)
                                    ->get_async(&payloads[k * static_cast<size_t>(servers) + static_cast<size_t>(p)]));

        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(ready[k]);
            const double start = sg4::Engine::get_clock();
            // The pushes leave together: their per-message software overheads overlap (profile only).
            if (const double overhead = ctx->scenario.cluster.nic.message_overhead_s(ps->shard_bytes(k)); overhead > 0)
                sg4::this_actor::sleep_for(overhead);
            std::vector<sg4::CommPtr> pushes;
            for (int p = 0; p < servers; ++p)
                pushes.push_back(sg4::Comm::sendto_async(host, ps->server_host(p), static_cast<uint64_t>(ps->shard_bytes(k))));
            state.waiting_for = "its pushes to the servers to complete";
            state.peer = -1;
            std::vector<int> server_of(static_cast<size_t>(servers));
            for (int p = 0; p < servers; ++p) server_of[static_cast<size_t>(p)] = p;
            while (!pushes.empty()) {
                const auto done = static_cast<size_t>(sg4::Comm::wait_any(pushes));
                ps->shard_arrived(server_of[done], it, static_cast<int>(k));
                pushes.erase(pushes.begin() + static_cast<long>(done));
                server_of.erase(server_of.begin() + static_cast<long>(done));
            }
            record_all("push", it, k, start);
        }
        double start = sg4::Engine::get_clock();
        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            state.waiting_for = "updated parameters from the servers";
            for (int p = 0; p < servers; ++p) pulls[k * static_cast<size_t>(servers) + static_cast<size_t>(p)]->wait();
            record_all("pull", it, k, start);
            start = std::max(start, sg4::Engine::get_clock());
        }
        wait_until(compute_end);
        for (int r = 0; r < endpoint.ranks; ++r) ctx->recorder.iteration_done(endpoint.first_rank + r, it, sg4::Engine::get_clock());
    }
    state.finished = true;
}

void server_sender_actor(SimulationContext* ctx, std::shared_ptr<ParameterServers> ps, int server, int slot) {
    const int server_rank = ctx->workers + server;
    auto& state = ctx->state(slot);
    for (int it = 0; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        for (size_t j = 0; j < ctx->plan.buckets.size(); ++j) {
            state.waiting_for = "a bucket to finish aggregating";
            const auto [k, ready_s] = ps->next_aggregated(server);
            wait_until(ready_s);
            const double bytes = ps->shard_bytes(static_cast<size_t>(k));
            const double start = sg4::Engine::get_clock();
            if (const double overhead = ctx->scenario.cluster.nic.message_overhead_s(bytes); overhead > 0)
                sg4::this_actor::sleep_for(overhead);
            std::vector<sg4::CommPtr> sends;
            for (int e = 0; e < ps->endpoint_count(); ++e)
                if (!ctx->lose_message_to(e * ps->endpoint_size()))
                    sends.push_back(ps->pull_mailbox(server, e)->put_async(&g_token, static_cast<uint64_t>(bytes)));
            state.waiting_for = "its parameter sends to complete";
            sg4::Comm::wait_all(sends);
            ctx->record(server_rank, Lane::comm, "send", it, k, start, bytes * ps->endpoint_count());
        }
    }
    state.finished = true;
}

}  // namespace

void spawn_parameter_server_actors(SimulationContext& ctx) {
    auto ps = std::make_shared<ParameterServers>(ctx);
    const int size = ps->endpoint_size();
    for (int e = 0; e < ps->endpoint_count(); ++e) {
        const Endpoint endpoint{e, e * size, size};
        const std::string ranks = size == 1 ? "rank " + std::to_string(e)
                                            : "ranks " + std::to_string(e * size) + "-" + std::to_string(e * size + size - 1);
        const int slot = ctx.register_actor(ranks);
        sg4::Actor::create("ps-worker-" + std::to_string(e), ctx.platform.gpu_hosts[static_cast<size_t>(e * size)],
                           worker_actor, &ctx, ps, endpoint, slot);
    }
    for (int p = 0; p < ps->server_count(); ++p) {
        const int slot = ctx.register_actor("server " + std::to_string(p));
        sg4::Actor::create("ps-server-" + std::to_string(p), ps->server_host(p), server_sender_actor, &ctx, ps, p, slot);
    }
}

}  // namespace dtsim::sim
