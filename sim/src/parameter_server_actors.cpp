// Parameter-server training: sync, async (Downpour) and stale-synchronous workers pushing gradient shards
// to P servers and pulling the updates. What each mode, sharding, striping and backup workers mean is in
// docs/architecture.md, "Parameter servers".
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>

#include "dtsim/shard_clock.hpp"
#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/compression.hpp"
#include "dtsim/sim/compute_schedule.hpp"
#include "dtsim/sim/faults.hpp"
#include "port_gate.hpp"
#include "ps_sharding.hpp"
#include "ps_striping.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

int g_ps_token = 0;  // payload of parameter messages: only their simulated size matters

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
    struct Reply {
        int bucket;
        int iteration;
        std::vector<int> endpoints;  // sync: every worker; async/ssp: those whose pushes it answers (ShardClock)
        double ready_s;              // when the aggregation or application that lets it go ends
    };
    Aggregator aggregator;
    std::vector<int> arrived;       // sync: shards of the current round, per bucket
    std::vector<int> round;         // sync: the iteration whose shards each bucket's round sums
    std::vector<long long> version;  // per bucket: rounds (sync) or applied gradients (async/ssp)
    std::vector<ShardClock> clock;   // async/ssp, per bucket: which replies may go
    sg4::SemaphorePtr ready = sg4::Semaphore::create(0);
    std::deque<Reply> queue;  // for the sender
    // The sender's replies not yet recorded. Held here rather than on the sender's stack: when a node
    // failure kills the sender, they outlive it until the failure has ended them.
    std::vector<ParameterSend> in_flight;
};

// The servers' state, on top of how the gradients are sharded over them. Aggregation runs in the pushing
// worker's actor (its end is known on arrival); each server has a sending actor (striped: server 0 alone).
class ParameterServers : public ServerSharding {
public:
    explicit ParameterServers(SimulationContext& ctx)
        : ServerSharding(ctx),
          ctx_(ctx),
          strategy_(ctx.scenario.training.strategy),
          servers_(static_cast<size_t>(strategy_.servers)),
          pull_mailboxes_(servers_.size() * static_cast<size_t>(endpoint_count()), nullptr),
          seen_(static_cast<size_t>(endpoint_count()) * servers_.size() * ctx.plan.buckets.size(), 0),
          seen_clock_(seen_.size(), ctx.cohort.first_iteration),
          reply_ready_(seen_.size(), 0.0) {
        if (ctx.platform.stripes_servers) group_.emplace(ctx.platform, *this, ctx.plan.buckets.size());
        else if (const auto& ramp = ctx.costs.port_join_ramp())
            gate_.emplace(*ramp, ctx.costs.nic().effective_bytes_per_second(), 2 * server_count(), endpoint_count());
        const auto bound = strategy_.sync == SyncMode::ssp ? std::optional<int>(strategy_.staleness) : std::nullopt;
        for (auto& server : servers_) {
            server.arrived.assign(ctx.plan.buckets.size(), 0);
            server.round.assign(ctx.plan.buckets.size(), ctx.cohort.first_iteration);
            server.version.assign(ctx.plan.buckets.size(), 0);
            if (strategy_.sync != SyncMode::sync)
                server.clock.assign(ctx.plan.buckets.size(), ShardClock(bound, endpoint_count(), ctx.cohort.first_iteration));
        }
    }

    SyncMode mode() const { return strategy_.sync; }
    /// Whether the servers are simulated as one striped group.
    bool striped() const { return group_.has_value(); }
    StripedServerGroup& group() { return *group_; }
    /// The servers' ports as queues that flows join, where the cost model says so (not striped): server p's
    /// way in is port `push_port(p)`, its way out `pull_port(p)`.
    PortGate* gate() { return gate_ ? &*gate_ : nullptr; }
    static int push_port(int p) { return 2 * p; }
    static int pull_port(int p) { return 2 * p + 1; }
    /// Whether a synchronous round waits for every worker's push.
    bool full_rounds() const { return strategy_.backup_workers == 0; }
    sg4::Host* server_host(int p) const { return ctx_.platform.server_hosts[static_cast<size_t>(p)]; }
    /// Where server `server` sends its updated shards for `endpoint`; looked up once per pair.
    sg4::Mailbox* pull_mailbox(int server, int endpoint) {
        auto& slot = pull_mailboxes_[static_cast<size_t>(server) * static_cast<size_t>(endpoint_count()) + static_cast<size_t>(endpoint)];
        if (!slot) slot = sg4::Mailbox::by_name(ctx_.epoch_name("ps-pull-" + std::to_string(server) + ">" + std::to_string(endpoint)));
        return slot;
    }
    /// Updated shards each server sends in the whole run: one per worker, bucket held and iteration.
    long long sends_per_server(int p) const {
        long long buckets = 0;
        for (size_t k = 0; k < ctx_.plan.buckets.size(); ++k) buckets += holds(p, k);
        return buckets * endpoint_count() * (ctx_.scenario.training.iterations - ctx_.cohort.first_iteration);
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
            const auto at = index(endpoint, p, bucket);
            ctx_.staleness.push_back(static_cast<double>(version - seen_[at]));
            ctx_.staleness_clocks.push_back(static_cast<double>(iteration - seen_clock_[at]));
            ++version;
            server.aggregator.flush(ctx_);
            auto go = server.clock[static_cast<size_t>(bucket)].applied(endpoint, iteration);
            if (!go.empty()) queue_reply(p, {bucket, iteration, std::move(go), done});
            return;
        }
        auto& round = server.round[static_cast<size_t>(bucket)];
        if (iteration < round) return;  // a backup round closed without it: dropped
        if (++server.arrived[static_cast<size_t>(bucket)] < endpoint_count() - strategy_.backup_workers) return;
        server.arrived[static_cast<size_t>(bucket)] = 0;
        ++round;
        ++version;
        server.aggregator.flush(ctx_);
        std::vector<int> everyone(static_cast<size_t>(endpoint_count()));
        std::iota(everyone.begin(), everyone.end(), 0);
        queue_reply(p, {bucket, iteration, std::move(everyone), done});
    }

    std::vector<ParameterSend>& sends_in_flight(int p) { return servers_[static_cast<size_t>(p)].in_flight; }

    Server::Reply next_reply(int p) {
        auto& server = servers_[static_cast<size_t>(p)];
        server.ready->acquire();
        auto next = std::move(server.queue.front());
        server.queue.pop_front();
        return next;
    }
    /// Whether `reply` is an update for every worker at once (a synchronous round, or SSP's after its slowest
    /// push); a server sends the next only once its sends are done, as a round's server does.
    bool whole_round(const Server::Reply& reply) const {
        return mode() != SyncMode::async && full_rounds() && static_cast<int>(reply.endpoints.size()) == endpoint_count();
    }

    /// The server sends its current parameters of `bucket` to `endpoint` now (striped: server 0 for all).
    void reply_sent(int p, int endpoint, int bucket, double ready_s) {
        for (int q = striped() ? 0 : p; q <= (striped() ? server_count() - 1 : p); ++q) {
            const auto& server = servers_[static_cast<size_t>(q)];
            const auto at = index(endpoint, q, bucket);
            seen_[at] = server.version[static_cast<size_t>(bucket)];
            if (!server.clock.empty()) seen_clock_[at] = server.clock[static_cast<size_t>(bucket)].complete();
            reply_ready_[at] = ready_s;
        }
    }
    /// When the reply to `endpoint` for `bucket` from `p` could first leave the server (its aggregation end).
    double reply_ready_s(int endpoint, int p, int bucket) const { return reply_ready_[index(endpoint, p, bucket)]; }

private:
    // Striped, server 0's sender sends for all: the others' replies are not queued.
    void queue_reply(int p, const Server::Reply& reply) {
        if (striped() && p != 0) return;
        auto& server = servers_[static_cast<size_t>(p)];
        server.queue.push_back(reply);
        server.ready->release();
    }

    size_t index(int endpoint, int p, int bucket) const {
        return (static_cast<size_t>(endpoint) * servers_.size() + static_cast<size_t>(p)) * ctx_.plan.buckets.size() +
               static_cast<size_t>(bucket);
    }

    SimulationContext& ctx_;
    const StrategySpec& strategy_;
    std::vector<Server> servers_;
    std::vector<sg4::Mailbox*> pull_mailboxes_;  // [server * endpoints + endpoint], sized up front
    std::vector<long long> seen_;                // version each endpoint last pulled, [endpoint][server][bucket]
    std::vector<int> seen_clock_;                // same index: the complete clock of what it pulled
    std::vector<double> reply_ready_;            // same index
    std::optional<StripedServerGroup> group_;
    std::optional<PortGate> gate_;
};

// Records a span with explicit ends on every GPU of an endpoint, when it has a duration.
void record_on(SimulationContext& ctx, const Endpoint& endpoint, Lane lane, const char* name, int it, size_t bucket,
               double start_s, double end_s, double bytes) {
    if (end_s <= start_s) return;
    for (int r = 0; r < endpoint.ranks; ++r)
        ctx.recorder.add(Span{endpoint.first_rank + r, lane, name, it, static_cast<int>(bucket), start_s, end_s, bytes});
}

// Local aggregation: the endpoint's GPUs sum a bucket into its first GPU before the push (`toward_first`) and
// spread the pulled parameters from it after the pull, as a pipelined chain (NCCL's ring reduce and broadcast):
// every link of the chain carries the whole bucket at once, so it takes one hop's latency and the bucket's bytes
// at the slowest link's rate.
void local_chain(SimulationContext& ctx, const Endpoint& endpoint, bool toward_first, int it, size_t k) {
    if (!ctx.scenario.training.strategy.local_aggregation || endpoint.ranks < 2) return;
    const double start = sg4::Engine::get_clock();
    const auto bytes = static_cast<uint64_t>(ctx.plan.buckets[k].bytes);
    std::vector<sg4::CommPtr> hops;
    for (int r = endpoint.first_rank; r + 1 < endpoint.first_rank + endpoint.ranks; ++r) {
        auto* nearer = ctx.platform.gpu_hosts[static_cast<size_t>(r)];
        auto* farther = ctx.platform.gpu_hosts[static_cast<size_t>(r + 1)];
        hops.push_back(toward_first ? sg4::Comm::sendto_async(farther, nearer, bytes) : sg4::Comm::sendto_async(nearer, farther, bytes));
    }
    sg4::Comm::wait_all(hops);
    record_on(ctx, endpoint, Lane::comm, toward_first ? "local reduce" : "local broadcast", it, k, start,
              sg4::Engine::get_clock(), ctx.plan.buckets[k].bytes);
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
        sg4::Comm::sendto_async(host, ps.group().port(endpoint), bytes)->wait();
        // Server 0, whose sender answers for the group, last: the reply it queues wakes that sender, which may
        // run before this loop goes on (a semaphore release is a simcall) and must see every server's state.
        for (auto p = server_of.rbegin(); p != server_of.rend(); ++p) ps.shard_arrived(*p, endpoint.index, it, static_cast<int>(k));
        server_of.clear();
    } else {
        auto* gate = ps.gate();
        // Ports free now first, so that waiting to join one does not hold back the others.
        if (gate)
            std::stable_partition(server_of.begin(), server_of.end(), [gate](int p) { return !gate->busy(ParameterServers::push_port(p)); });
        const double leave_s = sg4::Engine::get_clock();
        for (int p : server_of) {
            if (gate) gate->enter(ParameterServers::push_port(p), endpoint.index, leave_s);
            pushes.push_back(sg4::Comm::sendto_async(host, ps.server_host(p), static_cast<uint64_t>(ps.push_bytes(k))));
        }
    }
    while (!pushes.empty()) {
        const auto done = static_cast<size_t>(sg4::Comm::wait_any(pushes));
        if (auto* gate = ps.gate()) gate->leave(ParameterServers::push_port(server_of[done]), endpoint.index);
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
            local_chain(*ctx, endpoint, true, it, k);
            compute_on_comm_stream(*ctx, endpoint.first_rank, endpoint.ranks, "encode", it, static_cast<int>(k),
                                   ps->exchange(k).encode_s, false);
            push_bucket(*ctx, *ps, endpoint, it, k);
        }
        // Before a server could send a bucket back the worker waits (on the slowest worker's push in sync
        // mode, on the pushes SSP's bound needs, on the server's processor in any); after that the transfer
        // is communication.
        state.waiting_for = "updated parameters from the servers";
        for (size_t k = 0; k < bucket_count; ++k) {
            state.bucket = static_cast<int>(k);
            const double wait_start = sg4::Engine::get_clock();
            double sent_s = 0;
            if (ps->striped()) {
                const auto reply = ps->group().next_pull(endpoint.index, static_cast<int>(k));
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
            local_chain(*ctx, endpoint, false, it, k);
        }
        wait_until(compute_end);
        iteration_finished(*ctx, endpoint.first_rank, endpoint.ranks, it);
    }
    state.finished = true;
}

// Replies that join a server's way out (PortGate), to one worker: an actor of their own sends them in order
// (one mailbox carries them), waiting at the gate while the server's sender goes on with its other replies.
// The actor is the cohort's, which a node failure ends.
struct GatedSends {
    struct Send {
        int iteration;
        int bucket;
        double bytes;
    };
    std::deque<Send> queue;
    sg4::ActorPtr actor;  // while it sends
};

void send_gated(SimulationContext& ctx, const std::shared_ptr<ParameterServers>& ps, const std::shared_ptr<GatedSends>& sends,
                int server, int endpoint, GatedSends::Send send) {
    sends->queue.push_back(send);
    if (sends->actor) return;
    auto body = [&ctx, ps, sends, server, endpoint] {
        auto* gate = ps->gate();
        const int port = ParameterServers::pull_port(server);
        while (!sends->queue.empty()) {
            const auto next = sends->queue.front();
            sends->queue.pop_front();
            gate->enter(port, endpoint, sg4::Engine::get_clock());
            const double start = sg4::Engine::get_clock();
            ps->pull_mailbox(server, endpoint)->put(&g_ps_token, static_cast<uint64_t>(next.bytes));
            gate->leave(port, endpoint);
            ctx.recorder.add(Span{ctx.workers + server, Lane::comm, "send", next.iteration, next.bucket, start,
                                  sg4::Engine::get_clock(), next.bytes});
        }
        sends->actor = nullptr;
    };
    sends->actor = sg4::Actor::create("ps-send-" + std::to_string(server) + ">" + std::to_string(endpoint), ps->server_host(server),
                                      [&ctx, body] { run_in_epoch(ctx, body); });
    ctx.cohort.actors.push_back(sends->actor);
}

void join_all(const std::vector<std::shared_ptr<GatedSends>>& gated) {
    for (const auto& sends : gated)
        if (auto actor = sends->actor) actor->join();
}

// Sends each aggregated (sync) or applied (async/ssp) bucket back: to every worker, or to the one that
// pushed it. Replies are not waited for one by one, so a server's sends to many workers overlap.
void server_sender_actor(SimulationContext* ctx, std::shared_ptr<ParameterServers> ps, int server, int slot) {
    auto& state = ctx->state(slot);
    const int server_rank = ctx->workers + server;
    auto& in_flight = ps->sends_in_flight(server);  // per-server flows only: a striped reply's worker records it
    std::vector<std::shared_ptr<GatedSends>> gated;  // per endpoint, where sends join the server's way out
    if (ps->gate())
        for (size_t e = 0; e < ps->endpoints().size(); ++e) gated.push_back(std::make_shared<GatedSends>());
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
    for (long long sent = 0, total = ps->sends_per_server(server); sent < total;) {
        state.waiting_for = "a gradient to aggregate or apply";
        const auto reply = ps->next_reply(server);
        sent += static_cast<long long>(reply.endpoints.size());
        state.iteration = reply.iteration;
        state.bucket = reply.bucket;
        wait_until(reply.ready_s);
        const double bytes = ps->pull_bytes(static_cast<size_t>(reply.bucket));
        if (const double overhead = ctx->costs.nic().message_cost(bytes).overhead_s; overhead > 0)
            sg4::this_actor::sleep_for(overhead);
        for (int e : reply.endpoints) {
            ps->reply_sent(server, e, reply.bucket, reply.ready_s);
            const auto& endpoint = ps->endpoints()[static_cast<size_t>(e)];
            if (ctx->lose_message_to(endpoint.first_rank)) continue;
            if (ps->striped()) {
                auto comm = sg4::Comm::sendto_async(ps->group().port(endpoint), ctx->platform.gpu_hosts[static_cast<size_t>(endpoint.first_rank)],
                                                    static_cast<uint64_t>(bytes) * static_cast<uint64_t>(ps->server_count()));
                ps->group().pull_started(e, reply.bucket, {comm, reply.iteration, reply.bucket, bytes});
                continue;
            }
            if (ps->gate()) {
                send_gated(*ctx, ps, gated[static_cast<size_t>(e)], server, e, {reply.iteration, reply.bucket, bytes});
                continue;
            }
            in_flight.push_back({ps->pull_mailbox(server, e)->put_async(&g_ps_token, static_cast<uint64_t>(bytes)),
                                 reply.iteration, reply.bucket, bytes});
        }
        // A round's update goes to every worker at once; the next round's waits for it, which keeps the flows
        // in flight (and SimGrid's cost) down. Replies to single workers overlap.
        const bool round = ps->whole_round(reply);
        record_finished(round);
        if (round) join_all(gated);
    }
    state.waiting_for = "its parameter sends to complete";
    record_finished(true);
    join_all(gated);
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
