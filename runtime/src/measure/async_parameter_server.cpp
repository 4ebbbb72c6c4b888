#include "async_parameter_server.hpp"

#include <optional>

#include "../mpi_waiting.hpp"
#include "dtsim/shard_clock.hpp"
#include "parameter_server_messages.hpp"

namespace dtsim::runtime {
namespace {

struct PendingReply {
    std::vector<MPI_Request> requests;
    std::vector<float> values;  // what is being sent: the parameters may change meanwhile
    double send_time = 0;
    double start_s = 0;
    int iteration = 0;
};

}  // namespace

void run_async_parameter_server(MeasureSetup& setup) {
    const int me = setup.rank - setup.workers;
    const auto workers = static_cast<size_t>(setup.workers);
    auto held = shards_held_by(setup, me);
    std::vector<long> version(held.size(), 0);
    std::vector<std::vector<long>> pulled_version(held.size(), std::vector<long>(workers, 0));
    std::vector<std::vector<int>> pulled_clock(held.size(), std::vector<int>(workers, 0));  // its complete clock
    std::vector<std::vector<int>> pushes(held.size(), std::vector<int>(workers, 0));  // = the worker's iteration
    std::vector<std::vector<PendingReply>> replies(held.size(), std::vector<PendingReply>(workers));
    const auto& strategy = setup.scenario.training.strategy;
    const auto bound = strategy.sync == SyncMode::ssp ? std::optional<int>(strategy.staleness) : std::nullopt;
    std::vector<ShardClock> clock(held.size(), ShardClock(bound, setup.workers, 0));

    auto finish_reply = [&](size_t h, size_t w) {
        auto& reply = replies[h][w];
        if (reply.requests.empty()) return;
        wait_all(reply.requests);
        reply.requests.clear();
        setup.log.add(Lane::comm, "send", reply.iteration, held[h].bucket, reply.start_s, setup.clock.now(),
                      4.0 * static_cast<double>(held[h].shard.count));
    };

    // A receive is posted from every worker for every shard held, so that pushes flow at once and share the
    // link as a server's connections do; each is served as it completes.
    const int iterations = setup.scenario.training.iterations;
    std::vector<MPI_Request> receives(held.size() * workers, MPI_REQUEST_NULL);
    auto post_push = [&](size_t h, size_t w) {
        MPI_Irecv(held[h].received[w].data(), static_cast<int>(held[h].shard.count), MPI_FLOAT, static_cast<int>(w), held[h].bucket,
                  setup.world, &receives[h * workers + w]);
    };
    for (size_t h = 0; h < held.size(); ++h)
        for (size_t w = 0; w < workers; ++w) post_push(h, w);

    const long expected = static_cast<long>(workers * held.size()) * iterations;
    for (long applied = 0; applied < expected; ++applied) {
        MPI_Status status;
        const auto index = static_cast<size_t>(wait_any(receives, status));
        const size_t h = index / workers, w = index % workers;
        auto& part = held[h];
        const double apply_start = setup.clock.now();
        for (size_t j = 0; j < part.parameters.size(); ++j) part.parameters[j] += part.received[w][j];
        const int iteration = pushes[h][w]++;
        setup.log.staleness(static_cast<double>(version[h] - pulled_version[h][w]), static_cast<double>(iteration - pulled_clock[h][w]));
        ++version[h];
        setup.log.add(Lane::compute, "aggregate", iteration, part.bucket, apply_start, setup.clock.now(),
                      4.0 * static_cast<double>(part.shard.count));
        if (pushes[h][w] < iterations) post_push(h, w);
        for (int to : clock[h].applied(static_cast<int>(w), iteration)) {
            const auto v = static_cast<size_t>(to);
            finish_reply(h, v);  // the worker has taken its previous reply before pushing again
            auto& reply = replies[h][v];
            reply.values = part.parameters;
            reply.iteration = pushes[h][v] - 1;
            reply.start_s = setup.clock.now();
            pulled_version[h][v] = version[h];
            pulled_clock[h][v] = clock[h].complete();
            start_reply(setup, reply.values.data(), part.shard, to, part.bucket, reply.send_time, reply.requests);
        }
    }
    for (size_t h = 0; h < held.size(); ++h)
        for (size_t w = 0; w < workers; ++w) finish_reply(h, w);
}

}  // namespace dtsim::runtime
