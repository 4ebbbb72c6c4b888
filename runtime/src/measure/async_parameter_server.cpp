#include "async_parameter_server.hpp"

#include <optional>

#include "../mpi_waiting.hpp"
#include "parameter_server_messages.hpp"
#include "staleness_bound.hpp"

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
    std::vector<std::vector<int>> pushes(held.size(), std::vector<int>(workers, 0));  // = the worker's iteration
    std::vector<std::vector<PendingReply>> replies(held.size(), std::vector<PendingReply>(workers));
    std::optional<StalenessBound> bound;
    if (me == 0 && setup.scenario.training.strategy.sync == SyncMode::ssp) bound.emplace(setup);

    auto finish_reply = [&](size_t h, size_t w) {
        auto& reply = replies[h][w];
        if (reply.requests.empty()) return;
        wait_all(reply.requests);
        reply.requests.clear();
        setup.log.add(Lane::comm, "send", reply.iteration, held[h].bucket, reply.start_s, setup.clock.now(),
                      4.0 * static_cast<double>(held[h].shard.count));
    };

    // A receive is posted from every worker for every shard held (and, on server 0 under SSP, one for clock
    // messages), so that pushes flow at once and share the link as a server's connections do; each is
    // served as it completes.
    const int iterations = setup.scenario.training.iterations;
    std::vector<MPI_Request> receives(held.size() * workers + 1, MPI_REQUEST_NULL);
    auto post_push = [&](size_t h, size_t w) {
        MPI_Irecv(held[h].received[w].data(), static_cast<int>(held[h].shard.count), MPI_FLOAT, static_cast<int>(w), held[h].bucket,
                  setup.world, &receives[h * workers + w]);
    };
    int clock_message[2] = {0, 0};
    auto post_clock = [&] { MPI_Irecv(clock_message, 2, MPI_INT, MPI_ANY_SOURCE, kClockTag, setup.world, &receives.back()); };
    for (size_t h = 0; h < held.size(); ++h)
        for (size_t w = 0; w < workers; ++w) post_push(h, w);
    if (bound) post_clock();

    const long expected = static_cast<long>(workers * held.size()) * iterations;
    for (long applied = 0; applied < expected || (bound && !bound->done());) {
        MPI_Status status;
        const auto index = static_cast<size_t>(wait_any(receives, status));
        if (index == receives.size() - 1) {
            bound->receive(status.MPI_SOURCE, clock_message);
            if (!bound->done()) post_clock();
            continue;
        }
        const size_t h = index / workers, w = index % workers;
        auto& part = held[h];
        const double apply_start = setup.clock.now();
        for (size_t j = 0; j < part.parameters.size(); ++j) part.parameters[j] += part.received[w][j];
        setup.log.staleness(static_cast<double>(version[h] - pulled_version[h][w]));
        ++version[h];
        const int iteration = pushes[h][w]++;
        setup.log.add(Lane::compute, "aggregate", iteration, part.bucket, apply_start, setup.clock.now(),
                      4.0 * static_cast<double>(part.shard.count));
        if (pushes[h][w] < iterations) post_push(h, w);
        finish_reply(h, w);  // the worker has taken its previous reply before pushing again
        auto& reply = replies[h][w];
        reply.values = part.parameters;
        reply.iteration = iteration;
        reply.start_s = setup.clock.now();
        pulled_version[h][w] = version[h];
        start_reply(setup, reply.values.data(), part.shard, static_cast<int>(w), part.bucket, reply.send_time, reply.requests);
        ++applied;
    }
    for (size_t h = 0; h < held.size(); ++h)
        for (size_t w = 0; w < workers; ++w) finish_reply(h, w);
}

}  // namespace dtsim::runtime
