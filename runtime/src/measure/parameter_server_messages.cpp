#include "parameter_server_messages.hpp"

#include <algorithm>

#include "../mpi_waiting.hpp"
#include "gradient_data.hpp"

namespace dtsim::runtime {

void start_reply(const MeasureSetup& setup, const float* values, const Shard& shard, int worker, int bucket, double& send_time,
                 std::vector<MPI_Request>& requests) {
    send_time = setup.clock.now();
    requests.emplace_back();
    MPI_Isend(&send_time, 1, MPI_DOUBLE, worker, kReplyTimeTagBase + bucket, setup.world, &requests.back());
    requests.emplace_back();
    MPI_Isend(values, static_cast<int>(shard.count), MPI_FLOAT, worker, bucket, setup.world, &requests.back());
}

PostedPull post_pull(const MeasureSetup& setup, std::vector<float>& values, int bucket) {
    const auto shards = shards_of_bucket(values.size(), bucket, setup.servers, setup.scenario.training.strategy.sharding);
    PostedPull pull{bucket, std::vector<double>(shards.size(), 0), std::vector<MPI_Request>(2 * shards.size())};
    for (size_t s = 0; s < shards.size(); ++s) {
        const int server_rank = setup.workers + shards[s].server;
        MPI_Irecv(&pull.sent_at[s], 1, MPI_DOUBLE, server_rank, kReplyTimeTagBase + bucket, setup.world, &pull.requests[2 * s]);
        MPI_Irecv(values.data() + shards[s].first, static_cast<int>(shards[s].count), MPI_FLOAT, server_rank, bucket, setup.world,
                  &pull.requests[2 * s + 1]);
    }
    return pull;
}

void finish_pull(MeasureSetup& setup, PostedPull& pull, int iteration) {
    const double start = setup.clock.now();
    wait_all(pull.requests);
    const double end = setup.clock.now();
    const double transfer_start = std::clamp(*std::max_element(pull.sent_at.begin(), pull.sent_at.end()), start, end);
    if (transfer_start > start) setup.log.add(Lane::wait, "wait: servers", iteration, pull.bucket, start, transfer_start);
    setup.log.add(Lane::comm, "pull", iteration, pull.bucket, transfer_start, end, setup.plan.buckets[static_cast<size_t>(pull.bucket)].bytes);
}

std::vector<HeldShard> shards_held_by(const MeasureSetup& setup, int server) {
    std::vector<HeldShard> held;
    const auto workers = static_cast<size_t>(setup.workers);
    for (size_t k = 0; k < setup.plan.buckets.size(); ++k) {
        const int bucket = static_cast<int>(k);
        for (const auto& shard : shards_of_bucket(gradient_elements(setup.plan.buckets[k].bytes), bucket, setup.servers,
                                                  setup.scenario.training.strategy.sharding))
            if (shard.server == server)
                held.push_back({bucket, shard, std::vector<float>(shard.count),
                                std::vector<std::vector<float>>(workers, std::vector<float>(shard.count))});
    }
    return held;
}

}  // namespace dtsim::runtime
