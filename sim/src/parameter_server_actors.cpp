// Parameter servers, in three modes that differ only in when a worker may go on:
//   sync   a server aggregates a bucket's shards from every worker, then sends the update to all of them
//          (one version per round);
//   async  (Downpour) a server applies each worker's shard as it arrives and sends that worker the
//          current parameters at once; nobody waits for anybody (one version per applied gradient);
//   ssp    as async, but a worker may start iteration t only when the slowest has finished t - s - 1
//          (stale-synchronous parallel with bound s), and waits otherwise.
// Gradients are partitioned over P servers by size (every bucket split in P equal shards, BytePS-style)
// or round-robin (bucket k whole on server k mod P). Applying or summing a shard costs the server's
// processor bytes / aggregation bandwidth. Compression shrinks what is pushed and pulled (see
// compress_for_servers), with the worker's encode before a push and decode after a pull. The version gap
// between the parameters a worker pulled and those its next gradient is applied to is recorded for every
// async/ssp push (staleness).
//
// In `flow` fidelity the GPUs that share a NIC talk to the servers as one endpoint: one flow per (NIC,
// server) carries all of their shards. They share that NIC either way; this keeps the number of flows
// in flight, which SimGrid's cost grows with, eight times smaller on 8-GPU nodes with one NIC.
//
// Striped servers (platform.hpp, stripes_parameter_servers): where by-size sharding makes the P servers
// see the same flows at the same times, an endpoint's push goes as one flow of all its shards to its port
// to the server group, and every server takes its shard at that flow's end; server 0's sender alone starts
// the replies, each as one flow of every server's shard, and the worker that waits for it records the send
// on every server (one waiter per flow). The servers' aggregation, versions and spans stay per server.
// Unlike a server with flows of its own, the group does not wait for a synchronous round's sends before
// the next round's (the worker alone waits on a striped flow).
//
// Backup workers (sync only, training.strategy.backup_workers: b): a server closes a bucket's round with
// the first N - b pushes and sends the update to every worker; a push for a closed round is dropped
// (Chen et al., "Revisiting Distributed Synchronous SGD", 2016). Its sends are then not waited for as a
// round, since a late worker takes its update only when it gets there. After a node failure the
// endpoints are the cohort's (faults.hpp): numbered afresh, over the workers that go on.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/compression.hpp"
#include "dtsim/sim/compute_schedule.hpp"
#include "dtsim/sim/faults.hpp"

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
    struct InFlight {
        sg4::CommPtr comm;
        int iteration;
        int bucket;
        double bytes;
    };
    struct Reply {
        int bucket;
        int iteration;
        int endpoint;    // async/ssp: the worker whose push it answers; -1 (sync): every worker
        double ready_s;  // when its aggregation or application ends
    };
    Aggregator aggregator;
    std::vector<int> arrived;       // sync: shards of the current round, per bucket
    std::vector<int> round;         // sync: the iteration whose shards each bucket's round sums
    std::vector<long long> version;  // per bucket: rounds (sync) or applied gradients (async/ssp)
    sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
    std::deque<Reply> queue;  // for the sender
    // The sender's replies not yet recorded. Held here rather than on the sender's stack: when a node
    // failure kills the sender, they outlive it until the failure has ended them.
    std::vector<InFlight> in_flight;
};

class ParameterServers {
public:
    explicit ParameterServers(SimulationContext& ctx)
        : ctx_(ctx),
          strategy_(ctx.scenario.training.strategy),
          endpoint_size_(ctx.scenario.training.fidelity == Fidelity::flow
                             ? ctx.scenario.cluster.gpus_per_node / ctx.scenario.cluster.nics_per_node
                             : 1),
          endpoints_(cohort_endpoints(ctx.cohort.ranks, endpoint_size_)),
          servers_(static_cast<size_t>(strategy_.servers)),
          pull_mailboxes_(servers_.size() * static_cast<size_t>(endpoint_count()), nullptr),
          seen_(static_cast<size_t>(endpoint_count()) * servers_.size() * ctx.plan.buckets.size(), 0),
          reply_ready_(seen_.size(), 0.0),
          completed_(static_cast<size_t>(endpoint_count()), ctx.cohort.first_iteration),
          striped_(!ctx.platform.server_group_ports.empty()) {
        if (striped_) group_pulls_.resize(static_cast<size_t>(endpoint_count()) * ctx.plan.buckets.size());
        for (const auto& bucket : ctx.plan.buckets) exchanges_.push_back(compress_for_servers(ctx.scenario, ctx.costs, bucket.bytes));
        for (auto& server : servers_) {
            server.arrived.assign(ctx.plan.buckets.size(), 0);
            server.round.assign(ctx.plan.buckets.size(), ctx.cohort.first_iteration);
            server.version.assign(ctx.plan.buckets.size(), 0);
        }
    }

    SyncMode mode() const { return strategy_.sync; }
    /// Whether the servers are simulated as one striped group (see the top of this file).
    bool striped() const { return striped_; }
    /// Striped servers: where `endpoint` reaches the server group.
    sg4::Host* group_port(const Endpoint& endpoint) const {
        return ctx_.platform.server_group_ports[static_cast<size_t>(endpoint.first_rank / endpoint_size_)];
    }
    /// Striped servers: a reply to `endpoint` for `bucket` is under way (started by server 0's sender).
    void group_pull_started(int endpoint, int bucket, Server::InFlight reply) {
        auto& slot = group_pulls_[static_cast<size_t>(endpoint) * ctx_.plan.buckets.size() + static_cast<size_t>(bucket)];
        slot.replies.push_back(std::move(reply));
        slot.started->release();
    }
    /// Striped servers: the next reply to `endpoint` for `bucket`, once it is under way.
    Server::InFlight next_group_pull(int endpoint, int bucket) {
        auto& slot = group_pulls_[static_cast<size_t>(endpoint) * ctx_.plan.buckets.size() + static_cast<size_t>(bucket)];
        slot.started->acquire();
        auto reply = slot.replies.front();
        slot.replies.pop_front();
        return reply;
    }
    int endpoint_count() const { return static_cast<int>(endpoints_.size()); }
    const std::vector<Endpoint>& endpoints() const { return endpoints_; }
    /// Whether a synchronous round waits for every worker's push.
    bool full_rounds() const { return strategy_.backup_workers == 0; }
    int server_count() const { return static_cast<int>(servers_.size()); }
    /// Whether server `p` holds a part of `bucket`.
    bool holds(int p, size_t bucket) const {
        return strategy_.sharding == Sharding::by_size || static_cast<size_t>(p) == bucket % servers_.size();
    }
    /// The servers holding a part of `bucket`.
    std::vector<int> servers_of(size_t bucket) const {
        std::vector<int> out;
        for (int p = 0; p < server_count(); ++p)
            if (holds(p, bucket)) out.push_back(p);
        return out;
    }
    /// Uncompressed bytes of one endpoint's shard of a bucket on each server holding it (asked for on every
    /// push and reply).
    double shard_bytes(size_t bucket) const {
        const double shards = strategy_.sharding == Sharding::by_size ? server_count() : 1;
        return endpoint_size_ * ctx_.plan.buckets[bucket].bytes / shards;
    }
    /// What compression makes of a bucket's pushes and pulls.
    const ServerExchange& exchange(size_t bucket) const { return exchanges_[bucket]; }
    double push_bytes(size_t bucket) const { return shard_bytes(bucket) * exchanges_[bucket].push_fraction; }
    double pull_bytes(size_t bucket) const { return shard_bytes(bucket) * exchanges_[bucket].pull_fraction; }
    sg4::Host* server_host(int p) const { return ctx_.platform.server_hosts[static_cast<size_t>(p)]; }
    /// Where server `server` sends its updated shards for `endpoint`; looked up once per pair.
    sg4::Mailbox* pull_mailbox(int server, int endpoint) {
        auto& slot = pull_mailboxes_[static_cast<size_t>(server) * static_cast<size_t>(endpoint_count()) + static_cast<size_t>(endpoint)];
        if (!slot) slot = sg4::Mailbox::by_name(ctx_.epoch_name("ps-pull-" + std::to_string(server) + ">" + std::to_string(endpoint)));
        return slot;
    }
    /// Replies each server sends in the whole run.
    int replies_per_server(int p) const {
        int buckets = 0;
        for (size_t k = 0; k < ctx_.plan.buckets.size(); ++k) buckets += holds(p, k);
        const int per_round = mode() == SyncMode::sync ? 1 : endpoint_count();
        return buckets * per_round * (ctx_.scenario.training.iterations - ctx_.cohort.first_iteration);
    }

    /// A push of `bucket` from `endpoint` reached server `p`: sum or apply it, and queue the reply(ies).
    void shard_arrived(int p, int endpoint, int iteration, int bucket) {
        auto& server = servers_[static_cast<size_t>(p)];
        const auto& rate = strategy_.aggregation_bytes_per_second;
        const double bytes = shard_bytes(static_cast<size_t>(bucket));
        const double done = server.aggregator.add(ctx_, ctx_.workers + p, iteration, bucket, rate ? bytes / *rate : 0,
                                                  push_bytes(static_cast<size_t>(bucket)));
        auto& version = server.version[static_cast<size_t>(bucket)];
        if (mode() != SyncMode::sync) {
            ctx_.staleness.push_back(static_cast<double>(version - seen(endpoint, p, bucket)));
            ++version;
            server.aggregator.flush(ctx_);
            queue_reply(p, {bucket, iteration, endpoint, done});
            return;
        }
        auto& round = server.round[static_cast<size_t>(bucket)];
        if (iteration < round) return;  // a backup round closed without it: dropped
        if (++server.arrived[static_cast<size_t>(bucket)] < endpoint_count() - strategy_.backup_workers) return;
        server.arrived[static_cast<size_t>(bucket)] = 0;
        ++round;
        ++version;
        server.aggregator.flush(ctx_);
        queue_reply(p, {bucket, iteration, -1, done});
    }

    std::vector<Server::InFlight>& sends_in_flight(int p) { return servers_[static_cast<size_t>(p)].in_flight; }

    Server::Reply next_reply(int p) {
        auto& server = servers_[static_cast<size_t>(p)];
        server.ready->acquire();
        const auto next = server.queue.front();
        server.queue.pop_front();
        return next;
    }

    /// The server sends its current parameters of `bucket` to `endpoint` now (striped: server 0 for all).
    void reply_sent(int p, int endpoint, int bucket, double ready_s) {
        for (int q = striped_ ? 0 : p; q <= (striped_ ? server_count() - 1 : p); ++q) {
            seen(endpoint, q, bucket) = servers_[static_cast<size_t>(q)].version[static_cast<size_t>(bucket)];
            reply_ready_[index(endpoint, q, bucket)] = ready_s;
        }
    }
    /// When the reply to `endpoint` for `bucket` from `p` could first leave the server (its aggregation end).
    double reply_ready_s(int endpoint, int p, int bucket) const { return reply_ready_[index(endpoint, p, bucket)]; }

    /// SSP: blocks until the slowest endpoint has completed iteration `iteration - staleness - 1`.
    void wait_for_bound(int iteration) {
        if (mode() != SyncMode::ssp) return;
        std::unique_lock lock(*mutex_);
        bound_changed_->wait(lock, [&] { return slowest() >= iteration - strategy_.staleness; });
    }
    void iteration_completed(int endpoint) {
        std::unique_lock lock(*mutex_);
        ++completed_[static_cast<size_t>(endpoint)];
        bound_changed_->notify_all();
    }

private:
    // Striped, server 0's sender sends for all: the others' replies are not queued.
    void queue_reply(int p, const Server::Reply& reply) {
        if (striped_ && p != 0) return;
        auto& server = servers_[static_cast<size_t>(p)];
        server.queue.push_back(reply);
        server.ready->release();
    }
    struct GroupPulls {
        std::deque<Server::InFlight> replies;
        sg4::SemaphorePtr started = sg4::Semaphore::create(0);
    };

    size_t index(int endpoint, int p, int bucket) const {
        return (static_cast<size_t>(endpoint) * servers_.size() + static_cast<size_t>(p)) * ctx_.plan.buckets.size() +
               static_cast<size_t>(bucket);
    }
    long long& seen(int endpoint, int p, int bucket) { return seen_[index(endpoint, p, bucket)]; }
    int slowest() const { return *std::min_element(completed_.begin(), completed_.end()); }

    // The cohort's workers as endpoints of `size` GPUs (a node drops out whole, so they stay whole).
    static std::vector<Endpoint> cohort_endpoints(const std::vector<int>& ranks, int size) {
        std::vector<Endpoint> endpoints;
        for (size_t i = 0; i < ranks.size(); i += static_cast<size_t>(size))
            endpoints.push_back({static_cast<int>(endpoints.size()), ranks[i], size});
        return endpoints;
    }

    SimulationContext& ctx_;
    const StrategySpec& strategy_;
    int endpoint_size_;
    std::vector<Endpoint> endpoints_;
    std::vector<Server> servers_;
    std::vector<ServerExchange> exchanges_;      // per bucket
    std::vector<sg4::Mailbox*> pull_mailboxes_;  // [server * endpoints + endpoint], sized up front
    std::vector<long long> seen_;                // version each endpoint last pulled, [endpoint][server][bucket]
    std::vector<double> reply_ready_;            // same index
    std::vector<int> completed_;                 // iterations each endpoint has finished
    bool striped_;
    std::vector<GroupPulls> group_pulls_;        // striped: [endpoint][bucket]
    sg4::MutexPtr mutex_ = sg4::Mutex::create();
    sg4::ConditionVariablePtr bound_changed_ = sg4::ConditionVariable::create();
};

// Records a span with explicit ends on every GPU of an endpoint, when it has a duration.
void record_on(SimulationContext& ctx, const Endpoint& endpoint, Lane lane, const char* name, int it, size_t bucket,
               double start_s, double end_s, double bytes) {
    if (end_s <= start_s) return;
    for (int r = 0; r < endpoint.ranks; ++r)
        ctx.recorder.add(Span{endpoint.first_rank + r, lane, name, it, static_cast<int>(bucket), start_s, end_s, bytes});
}

void push_bucket(SimulationContext& ctx, ParameterServers& ps, const Endpoint& endpoint, int it, size_t k) {
    auto* host = ctx.platform.gpu_hosts[static_cast<size_t>(endpoint.first_rank)];
    const double start = sg4::Engine::get_clock();
    // The pushes leave together: their per-message software overheads overlap (profile only).
    if (const double overhead = ctx.costs.nic().message_cost(ps.push_bytes(k)).overhead_s; overhead > 0)
        sg4::this_actor::sleep_for(overhead);
    auto server_of = ps.servers_of(k);
    std::vector<sg4::CommPtr> pushes;
    if (ps.striped()) {
        const auto bytes = static_cast<uint64_t>(ps.push_bytes(k)) * server_of.size();  // every shard's, as each server's flow
        sg4::Comm::sendto_async(host, ps.group_port(endpoint), bytes)->wait();
        for (int p : server_of) ps.shard_arrived(p, endpoint.index, it, static_cast<int>(k));
        server_of.clear();
    } else {
        for (int p : server_of) pushes.push_back(sg4::Comm::sendto_async(host, ps.server_host(p), static_cast<uint64_t>(ps.push_bytes(k))));
    }
    while (!pushes.empty()) {
        const auto done = static_cast<size_t>(sg4::Comm::wait_any(pushes));
        ps.shard_arrived(server_of[done], endpoint.index, it, static_cast<int>(k));
        pushes.erase(pushes.begin() + static_cast<long>(done));
        server_of.erase(server_of.begin() + static_cast<long>(done));
    }
    record_on(ctx, endpoint, Lane::comm, "push", it, k, start, sg4::Engine::get_clock(),
              ctx.plan.buckets[k].bytes * ps.exchange(k).push_fraction);
}

void worker_actor(SimulationContext* ctx, std::shared_ptr<ParameterServers> ps, Endpoint endpoint, int slot) {
    const auto bucket_count = ctx->plan.buckets.size();
    auto& state = ctx->state(slot);
    await_restart(*ctx, endpoint.first_rank, endpoint.ranks);
    for (int it = ctx->cohort.first_iteration; it < ctx->scenario.training.iterations; ++it) {
        state.iteration = it;
        state.bucket = -1;
        state.waiting_for = "the staleness bound (the slowest worker)";
        const double bound_start = sg4::Engine::get_clock();
        ps->wait_for_bound(it);
        record_on(*ctx, endpoint, Lane::wait, "wait: staleness bound", it, 0, bound_start, sg4::Engine::get_clock(), 0);

        const double iteration_start = sg4::Engine::get_clock();
        std::vector<double> ready(bucket_count, 0.0);
        double compute_end = 0;
        for (int r = 0; r < endpoint.ranks; ++r) {
            const auto compute = schedule_compute(*ctx, endpoint.first_rank + r, it, iteration_start);
            for (size_t k = 0; k < bucket_count; ++k) ready[k] = std::max(ready[k], compute.bucket_ready_s[k]);
            compute_end = std::max(compute_end, compute.compute_end_s);
        }
        // Every updated shard of the iteration is expected from the start, so servers' sends flow at once.
        std::vector<std::vector<std::pair<int, sg4::CommPtr>>> pulls(bucket_count);  // per bucket: (server, comm)
        std::vector<int*> payloads(bucket_count * static_cast<size_t>(ps->server_count()), nullptr);
        for (size_t k = 0; k < bucket_count && !ps->striped(); ++k)
            for (int p : ps->servers_of(k))
                pulls[k].emplace_back(p, ps->pull_mailbox(p, endpoint.index)
                                             ->get_async(&payloads[k * static_cast<size_t>(ps->server_count()) + static_cast<size_t>(p)]));

        state.waiting_for = "its pushes to the servers to complete";
        state.peer = -1;
        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            wait_until(ready[k]);
            compute_on_comm_stream(*ctx, endpoint.first_rank, endpoint.ranks, "encode", it, static_cast<int>(k),
                                   ps->exchange(k).encode_s, false);
            push_bucket(*ctx, *ps, endpoint, it, k);
        }
        // Before a server could send a bucket back the worker waits (on the slowest worker's push in sync
        // mode, on the server's processor in any); after that the transfer is communication.
        state.waiting_for = "updated parameters from the servers";
        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            const double wait_start = sg4::Engine::get_clock();
            double sent_s = 0;
            if (ps->striped()) {
                const auto reply = ps->next_group_pull(endpoint.index, static_cast<int>(k));
                reply.comm->wait();
                sent_s = ps->reply_ready_s(endpoint.index, 0, static_cast<int>(k));
                for (int p = 0; p < ps->server_count(); ++p)
                    ctx->recorder.add(Span{ctx->workers + p, Lane::comm, "send", reply.iteration, reply.bucket,
                                           reply.comm->get_start_time(), reply.comm->get_finish_time(), reply.bytes});
            }
            for (auto& [p, comm] : pulls[k]) {
                comm->wait();
                sent_s = std::max(sent_s, ps->reply_ready_s(endpoint.index, p, static_cast<int>(k)));
            }
            const double now = sg4::Engine::get_clock();
            const double transfer_start = std::clamp(sent_s, wait_start, now);
            record_on(*ctx, endpoint, Lane::wait, "wait: servers", it, k, wait_start, transfer_start, 0);
            record_on(*ctx, endpoint, Lane::comm, "pull", it, k, transfer_start, now,
                      ctx->plan.buckets[k].bytes * ps->exchange(k).pull_fraction);
            compute_on_comm_stream(*ctx, endpoint.first_rank, endpoint.ranks, "decode", it, static_cast<int>(k),
                                   ps->exchange(k).decode_s, false);
        }
        wait_until(compute_end);
        iteration_finished(*ctx, endpoint.first_rank, endpoint.ranks, it);
        ps->iteration_completed(endpoint.index);
    }
    state.finished = true;
}

// Sends each aggregated (sync) or applied (async/ssp) bucket back: to every worker, or to the one that
// pushed it. Replies are not waited for one by one, so a server's sends to many workers overlap.
void server_sender_actor(SimulationContext* ctx, std::shared_ptr<ParameterServers> ps, int server, int slot) {
    auto& state = ctx->state(slot);
    const int server_rank = ctx->workers + server;
    auto& in_flight = ps->sends_in_flight(server);  // per-server flows only: a striped reply's worker records it
    auto record_finished = [&](bool wait) {
        for (auto it = in_flight.begin(); it != in_flight.end();) {
            if (wait) it->comm->wait();
            if (!it->comm->test()) {
                ++it;
                continue;
            }
            ctx->recorder.add(Span{server_rank, Lane::comm, "send", it->iteration, it->bucket, it->comm->get_start_time(),
                                   it->comm->get_finish_time(), it->bytes});
            it = in_flight.erase(it);
        }
    };
    for (int n = 0, total = ps->replies_per_server(server); n < total; ++n) {
        state.waiting_for = "a gradient to aggregate or apply";
        const auto reply = ps->next_reply(server);
        state.iteration = reply.iteration;
        state.bucket = reply.bucket;
        wait_until(reply.ready_s);
        const double bytes = ps->pull_bytes(static_cast<size_t>(reply.bucket));
        if (const double overhead = ctx->costs.nic().message_cost(bytes).overhead_s; overhead > 0)
            sg4::this_actor::sleep_for(overhead);
        const int first = reply.endpoint < 0 ? 0 : reply.endpoint;
        const int last = reply.endpoint < 0 ? ps->endpoint_count() - 1 : reply.endpoint;
        for (int e = first; e <= last; ++e) {
            ps->reply_sent(server, e, reply.bucket, reply.ready_s);
            const auto& endpoint = ps->endpoints()[static_cast<size_t>(e)];
            if (ctx->lose_message_to(endpoint.first_rank)) continue;
            if (ps->striped()) {
                auto comm = sg4::Comm::sendto_async(ps->group_port(endpoint), ctx->platform.gpu_hosts[static_cast<size_t>(endpoint.first_rank)],
                                                    static_cast<uint64_t>(bytes) * static_cast<uint64_t>(ps->server_count()));
                ps->group_pull_started(e, reply.bucket, {comm, reply.iteration, reply.bucket, bytes});
                continue;
            }
            in_flight.push_back({ps->pull_mailbox(server, e)->put_async(&g_token, static_cast<uint64_t>(bytes)), reply.iteration,
                                 reply.bucket, bytes});
        }
        // A synchronous round's update goes to every worker at once; the next round's waits for it, which
        // keeps the flows in flight (and SimGrid's cost) down. Async replies overlap.
        record_finished(reply.endpoint < 0 && ps->full_rounds());
    }
    state.waiting_for = "its parameter sends to complete";
    record_finished(true);
    state.finished = true;
}

}  // namespace

void spawn_parameter_server_actors(SimulationContext& ctx) {
    auto ps = std::make_shared<ParameterServers>(ctx);
    auto spawn = [&ctx](const std::string& name, sg4::Host* host, std::function<void()> body) {
        ctx.cohort.actors.push_back(sg4::Actor::create(name, host, [&ctx, body] { run_in_epoch(ctx, body); }));
    };
    for (const auto& endpoint : ps->endpoints()) {
        const int first = endpoint.first_rank;
        const std::string ranks = endpoint.ranks == 1 ? "rank " + std::to_string(first)
                                                      : "ranks " + std::to_string(first) + "-" + std::to_string(first + endpoint.ranks - 1);
        const int slot = ctx.register_actor(ranks);
        spawn("ps-worker-" + std::to_string(first), ctx.platform.gpu_hosts[static_cast<size_t>(first)],
              [&ctx, ps, endpoint, slot] { worker_actor(&ctx, ps, endpoint, slot); });
    }
    for (int p = 0; p < (ps->striped() ? 1 : ps->server_count()); ++p) {
        const int slot = ctx.register_actor("server " + std::to_string(p));
        spawn("ps-server-" + std::to_string(p), ps->server_host(p), [&ctx, ps, p, slot] { server_sender_actor(&ctx, ps, p, slot); });
    }
}

}  // namespace dtsim::sim
