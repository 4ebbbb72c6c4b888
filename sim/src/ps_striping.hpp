#pragma once
// Internal to the parameter-server actors: striped servers (Platform::stripes_servers), routed as one
// group. An endpoint's push goes as one flow of all its shards to its port to the group; server 0's
// sender alone starts the replies, each one flow of every server's shard, and hands it to the worker that
// waits for it (docs/architecture.md, "Parameter servers").
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <deque>
#include <vector>

#include "ps_sharding.hpp"

namespace dtsim::sim {

/// A server's send of updated parameters, under way.
struct ParameterSend {
    simgrid::s4u::CommPtr comm;
    int iteration;
    int bucket;
    double bytes;
};

class StripedServerGroup {
public:
    StripedServerGroup(const Platform& platform, const ServerSharding& sharding, size_t buckets);

    /// Where `endpoint` reaches the server group.
    simgrid::s4u::Host* port(const Endpoint& endpoint) const;
    /// A reply to `endpoint` for `bucket` is under way (started by server 0's sender).
    void pull_started(int endpoint, int bucket, ParameterSend reply);
    /// The next reply to `endpoint` for `bucket`, once it is under way.
    ParameterSend next_pull(int endpoint, int bucket);

private:
    struct Pulls {
        std::deque<ParameterSend> replies;
        simgrid::s4u::SemaphorePtr started = simgrid::s4u::Semaphore::create(0);
    };
    Pulls& pulls(int endpoint, int bucket);

    const std::vector<simgrid::s4u::Host*>& ports_;  // per endpoint
    int endpoint_size_;
    size_t buckets_;
    std::vector<Pulls> pulls_;  // [endpoint][bucket]
};

}  // namespace dtsim::sim
