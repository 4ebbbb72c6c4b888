#include "async_parameter_server.hpp"

#include <map>
#include <optional>

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
    std::map<int, size_t> held_of_bucket;
    for (size_t h = 0; h < held.size(); ++h) held_of_bucket[held[h].bucket] = h;
    std::vector<long> version(held.size(), 0);
    std::vector<std::vector<long>> pulled_version(held.size(), std::vector<long>(workers, 0));
    std::vector<std::vector<int>> pushes(held.size(), std::vector<int>(workers, 0));  // = the worker's iteration
    std::vector<std::vector<PendingReply>> replies(held.size(), std::vector<PendingReply>(workers));
    std::optional<StalenessBound> bound;
    if (me == 0 && setup.scenario.training.strategy.sync == SyncMode::ssp) bound.emplace(setup);

    auto finish_reply = [&](size_t h, size_t w) {
        auto& reply = replies[h][w];
        if (reply.requests.empty()) return;
        MPI_Waitall(static_cast<int>(reply.requests.size()), reply.requests.data(), MPI_STATUSES_IGNORE);
        reply.requests.clear();
        setup.log.add(Lane::comm, "send", reply.iteration, held[h].bucket, reply.start_s, setup.clock.now(),
                      4.0 * static_cast<double>(held[h].shard.count));
    };

    const long expected = static_cast<long>(workers * held.size()) * setup.scenario.training.iterations;
    for (long applied = 0; applied < expected || (bound && !bound->done());) {
        MPI_Status status;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, setup.world, &status);
        const auto w = static_cast<size_t>(status.MPI_SOURCE);
        if (status.MPI_TAG == kClockTag) {
            bound->receive(status.MPI_SOURCE);
            continue;
        }
        const size_t h = held_of_bucket.at(status.MPI_TAG);
        auto& part = held[h];
        MPI_Recv(part.received[w].data(), static_cast<int>(part.shard.count), MPI_FLOAT, status.MPI_SOURCE, status.MPI_TAG,
                 setup.world, MPI_STATUS_IGNORE);
        const double apply_start = setup.clock.now();
        for (size_t j = 0; j < part.parameters.size(); ++j) part.parameters[j] += part.received[w][j];
        setup.log.staleness(static_cast<double>(version[h] - pulled_version[h][w]));
        ++version[h];
        const int iteration = pushes[h][w]++;
        setup.log.add(Lane::compute, "aggregate", iteration, part.bucket, apply_start, setup.clock.now(),
                      4.0 * static_cast<double>(part.shard.count));
        finish_reply(h, w);  // the worker has taken its previous reply before pushing again
        auto& reply = replies[h][w];
        reply.values = part.parameters;
        reply.iteration = iteration;
        reply.start_s = setup.clock.now();
        pulled_version[h][w] = version[h];
        start_reply(setup, reply.values.data(), part.shard, status.MPI_SOURCE, part.bucket, reply.send_time, reply.requests);
        ++applied;
    }
    for (size_t h = 0; h < held.size(); ++h)
        for (size_t w = 0; w < workers; ++w) finish_reply(h, w);
}

}  // namespace dtsim::runtime
