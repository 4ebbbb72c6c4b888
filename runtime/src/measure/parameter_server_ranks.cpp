#include "parameter_server_ranks.hpp"

#include <vector>

#include "../mpi_waiting.hpp"
#include "communication_thread.hpp"
#include "gradient_data.hpp"
#include "parameter_server_messages.hpp"
#include "worker_compute.hpp"

namespace dtsim::runtime {

void run_parameter_server_worker(MeasureSetup& setup) {
    const auto& buckets = setup.plan.buckets;
    const int bucket_count = static_cast<int>(buckets.size());
    const auto sync = setup.scenario.training.strategy.sync;
    std::vector<std::vector<float>> gradients, pulled;  // a pull must not land in a buffer a push may still send
    for (const auto& bucket : buckets) gradients.emplace_back(gradient_elements(bucket.bytes));
    pulled = gradients;
    std::vector<PostedPull> pulls;

    auto push_bucket = [&](int iteration, int k) {
        if (k == 0)
            for (int b = 0; b < bucket_count; ++b) pulls.push_back(post_pull(setup, pulled[static_cast<size_t>(b)], b));
        auto& values = gradients[static_cast<size_t>(k)];
        fill_gradients(values, setup.rank, iteration, k);
        std::vector<MPI_Request> requests;
        const double start = setup.clock.now();
        for (const auto& shard : shards_of_bucket(values.size(), k, setup.servers, setup.scenario.training.strategy.sharding)) {
            requests.emplace_back();
            MPI_Isend(values.data() + shard.first, static_cast<int>(shard.count), MPI_FLOAT, setup.workers + shard.server, k,
                      setup.world, &requests.back());
        }
        wait_all(requests);
        setup.log.add(Lane::comm, "push", iteration, k, start, setup.clock.now(), setup.plan.buckets[static_cast<size_t>(k)].bytes);
        if (k + 1 < bucket_count) return;
        for (auto& pull : pulls) {  // every bucket pushed: take the updated parameters back
            finish_pull(setup, pull, iteration);
            // Only a synchronous round's result is known in advance: the sum of this iteration's gradients.
            if (setup.verify && sync == SyncMode::sync)
                setup.wrong_sums += count_wrong_sums(pulled[static_cast<size_t>(pull.bucket)], setup.workers, iteration, pull.bucket);
        }
        pulls.clear();
    };
    CommunicationThread comm;
    for (int it = 0; it < setup.scenario.training.iterations; ++it) {
        compute_iteration(setup, it, [&](int k) { comm.submit([&push_bucket, it, k] { push_bucket(it, k); }); });
        comm.wait_idle();
        setup.log.iteration_done(it, setup.clock.now());
    }
}

void run_sync_parameter_server(MeasureSetup& setup) {
    const auto workers = static_cast<size_t>(setup.workers);
    auto held = shards_held_by(setup, setup.rank - setup.workers);
    std::vector<double> send_time(held.size() * workers);
    for (int it = 0; it < setup.scenario.training.iterations; ++it) {
        std::vector<MPI_Request> sends;
        std::vector<double> send_start(held.size());
        for (size_t h = 0; h < held.size(); ++h) {
            auto& part = held[h];
            const int count = static_cast<int>(part.shard.count);
            std::vector<MPI_Request> receives(workers);
            for (size_t w = 0; w < workers; ++w)
                MPI_Irecv(part.received[w].data(), count, MPI_FLOAT, static_cast<int>(w), part.bucket, setup.world, &receives[w]);
            wait_all(receives);
            const double aggregate_start = setup.clock.now();
            std::fill(part.parameters.begin(), part.parameters.end(), 0.0f);
            for (const auto& from : part.received)
                for (size_t j = 0; j < from.size(); ++j) part.parameters[j] += from[j];
            const double bytes = 4.0 * static_cast<double>(part.shard.count * workers);
            setup.log.add(Lane::compute, "aggregate", it, part.bucket, aggregate_start, setup.clock.now(), bytes);
            send_start[h] = setup.clock.now();
            for (size_t w = 0; w < workers; ++w)
                start_reply(setup, part.parameters.data(), part.shard, static_cast<int>(w), part.bucket, send_time[h * workers + w], sends);
        }
        // Sends are waited for only here, so that a worker's later pushes are received meanwhile; their spans
        // end when the last completes (a server's timeline does not enter the summary's shares).
        wait_all(sends);
        const double end = setup.clock.now();
        for (size_t h = 0; h < held.size(); ++h)
            setup.log.add(Lane::comm, "send", it, held[h].bucket, send_start[h], end, 4.0 * static_cast<double>(held[h].shard.count * workers));
    }
}

}  // namespace dtsim::runtime
