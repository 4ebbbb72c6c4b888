#include "parameter_server_ranks.hpp"

#include <vector>

#include "communication_thread.hpp"
#include "gradient_data.hpp"
#include "parameter_server_shards.hpp"
#include "worker_compute.hpp"

namespace dtsim::runtime {
namespace {

std::vector<Shard> shards(const MeasureSetup& setup, std::size_t elements, int bucket) {
    return shards_of_bucket(elements, bucket, setup.servers, setup.scenario.training.strategy.sharding);
}

int count_of(std::size_t elements) { return static_cast<int>(elements); }

}  // namespace

void run_parameter_server_worker(MeasureSetup& setup) {
    const auto& buckets = setup.plan.buckets;
    const int bucket_count = static_cast<int>(buckets.size());
    std::vector<std::vector<float>> gradients;
    for (const auto& bucket : buckets) gradients.emplace_back(gradient_elements(bucket.bytes));

    auto transfer = [&setup, &gradients](int iteration, int k, bool push) {
        auto& values = gradients[static_cast<size_t>(k)];
        std::vector<MPI_Request> requests;
        const double start = setup.clock.now();
        for (const auto& shard : shards(setup, values.size(), k)) {
            requests.emplace_back();
            const int server_rank = setup.workers + shard.server;
            if (push)
                MPI_Isend(values.data() + shard.first, count_of(shard.count), MPI_FLOAT, server_rank, k, setup.world, &requests.back());
            else
                MPI_Irecv(values.data() + shard.first, count_of(shard.count), MPI_FLOAT, server_rank, k, setup.world, &requests.back());
        }
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        setup.log.add(Lane::comm, push ? "push" : "pull", iteration, k, start, setup.clock.now(),
                      setup.plan.buckets[static_cast<size_t>(k)].bytes);
    };
    auto push_bucket = [&](int iteration, int k) {
        fill_gradients(gradients[static_cast<size_t>(k)], setup.rank, iteration, k);
        transfer(iteration, k, true);
        if (k + 1 < bucket_count) return;
        for (int b = 0; b < bucket_count; ++b) {  // every bucket pushed: take the updated parameters back
            transfer(iteration, b, false);
            if (setup.verify) setup.wrong_sums += count_wrong_sums(gradients[static_cast<size_t>(b)], setup.workers, iteration, b);
        }
    };
    CommunicationThread comm;
    for (int it = 0; it < setup.scenario.training.iterations; ++it) {
        compute_iteration(setup, it, [&](int k) { comm.submit([&push_bucket, it, k] { push_bucket(it, k); }); });
        comm.wait_idle();
        setup.log.iteration_done(it, setup.clock.now());
    }
}

void run_parameter_server(MeasureSetup& setup) {
    const int me = setup.rank - setup.workers;
    const auto workers = static_cast<size_t>(setup.workers);
    struct Held {
        int bucket;
        Shard shard;
        std::vector<float> sum;
        std::vector<std::vector<float>> received;  // one per worker
    };
    std::vector<Held> held;
    for (size_t k = 0; k < setup.plan.buckets.size(); ++k) {
        const int bucket = static_cast<int>(k);
        for (const auto& shard : shards(setup, gradient_elements(setup.plan.buckets[k].bytes), bucket))
            if (shard.server == me)
                held.push_back({bucket, shard, std::vector<float>(shard.count),
                                std::vector<std::vector<float>>(workers, std::vector<float>(shard.count))});
    }
    for (int it = 0; it < setup.scenario.training.iterations; ++it) {
        std::vector<MPI_Request> sends;
        std::vector<double> send_start(held.size());
        for (size_t h = 0; h < held.size(); ++h) {
            auto& part = held[h];
            const int count = count_of(part.shard.count);
            std::vector<MPI_Request> receives(workers);
            for (size_t w = 0; w < workers; ++w)
                MPI_Irecv(part.received[w].data(), count, MPI_FLOAT, static_cast<int>(w), part.bucket, setup.world, &receives[w]);
            MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE);
            const double aggregate_start = setup.clock.now();
            std::fill(part.sum.begin(), part.sum.end(), 0.0f);
            for (const auto& from : part.received)
                for (size_t j = 0; j < from.size(); ++j) part.sum[j] += from[j];
            const double bytes = 4.0 * static_cast<double>(part.shard.count * workers);
            setup.log.add(Lane::compute, "aggregate", it, part.bucket, aggregate_start, setup.clock.now(), bytes);
            send_start[h] = setup.clock.now();
            for (size_t w = 0; w < workers; ++w) {
                sends.emplace_back();
                MPI_Isend(part.sum.data(), count, MPI_FLOAT, static_cast<int>(w), part.bucket, setup.world, &sends.back());
            }
        }
        // Sends are waited for only here, so that a worker's later pushes are received meanwhile; their spans
        // end when the last completes (a server's timeline does not enter the summary's shares).
        MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
        const double end = setup.clock.now();
        for (size_t h = 0; h < held.size(); ++h)
            setup.log.add(Lane::comm, "send", it, held[h].bucket, send_start[h], end, 4.0 * static_cast<double>(held[h].shard.count * workers));
    }
}

}  // namespace dtsim::runtime
