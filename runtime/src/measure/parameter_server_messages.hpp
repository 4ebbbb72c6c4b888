#pragma once
// The messages between workers and parameter servers. A push carries a shard of a bucket (tag: the
// bucket). A reply carries the server's aligned clock at the moment it starts sending (so the worker can
// tell waiting for the server from the transfer) and then the updated shard.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "measure_setup.hpp"
#include "parameter_server_shards.hpp"

namespace dtsim::runtime {

inline constexpr int kReplyTimeTagBase = 1 << 20;  // + bucket; buckets are fewer than this

/// Starts the reply of `shard` (`values`, which must stay untouched until `requests` complete) to a worker.
void start_reply(const MeasureSetup& setup, const float* values, const Shard& shard, int worker, int bucket, double& send_time,
                 std::vector<MPI_Request>& requests);

/// A worker's pull of one bucket: the replies of every server holding a shard of it. Posted at the start of
/// the iteration, as the simulator's worker does, so that a bucket's reply flows while later buckets are
/// still being pushed; finished in bucket order once every push is out.
struct PostedPull {
    int bucket = 0;
    std::vector<double> sent_at;  // each server's aligned clock when it started its reply
    std::vector<MPI_Request> requests;
};
/// `values` receives the updated bucket and must not be touched until finish_pull.
PostedPull post_pull(const MeasureSetup& setup, std::vector<float>& values, int bucket);
/// Waits for the replies and records the wait for the servers and the transfer as separate spans: until
/// the last server started sending the worker was waiting for it, after that it was communicating.
void finish_pull(MeasureSetup& setup, PostedPull& pull, int iteration);

/// The shards of every bucket that server `server` holds, with room for one shard per worker.
struct HeldShard {
    int bucket = 0;
    Shard shard;
    std::vector<float> parameters;             // the sum, or the parameters the updates are applied to
    std::vector<std::vector<float>> received;  // one per worker
};
std::vector<HeldShard> shards_held_by(const MeasureSetup& setup, int server);

}  // namespace dtsim::runtime
