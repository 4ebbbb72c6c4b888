#pragma once
// Internal to the parameter-server actors: which server holds which part of each bucket, and how many
// bytes a push or a pull of it carries (docs/architecture.md, "Parameter servers").
#include <vector>

#include "dtsim/sim/compression.hpp"
#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

/// The workers that talk to the servers as one: the GPUs behind one NIC in flow fidelity or with local
/// aggregation, else a single GPU.
struct Endpoint {
    int index = 0;       // endpoint number
    int first_rank = 0;  // the GPUs first_rank .. first_rank + ranks - 1
    int ranks = 1;
};

/// Gradients over P servers by size (every bucket split in P equal shards) or round-robin (bucket k whole
/// on server k mod P), as the cohort's endpoints push them.
class ServerSharding {
public:
    explicit ServerSharding(const SimulationContext& ctx);

    int endpoint_count() const { return static_cast<int>(endpoints_.size()); }
    const std::vector<Endpoint>& endpoints() const { return endpoints_; }
    /// GPUs per endpoint.
    int endpoint_size() const { return endpoint_size_; }
    int server_count() const { return server_count_; }
    /// Whether server `p` holds a part of `bucket`.
    bool holds(int p, size_t bucket) const;
    /// The servers holding a part of `bucket`.
    std::vector<int> servers_of(size_t bucket) const;
    /// Uncompressed bytes of one endpoint's shard of a bucket on each server holding it (asked for on every
    /// push and reply): every GPU's copy, or one with local aggregation.
    double shard_bytes(size_t bucket) const;
    /// What compression makes of a bucket's pushes and pulls.
    const ServerExchange& exchange(size_t bucket) const { return exchanges_[bucket]; }
    double push_bytes(size_t bucket) const { return shard_bytes(bucket) * exchanges_[bucket].push_fraction; }
    double pull_bytes(size_t bucket) const { return shard_bytes(bucket) * exchanges_[bucket].pull_fraction; }

private:
    const std::vector<Bucket>& buckets_;
    Sharding sharding_;
    int server_count_;
    int endpoint_size_;
    int copies_per_endpoint_;  // gradient copies an endpoint pushes: one once its GPUs have summed them
    std::vector<Endpoint> endpoints_;
    std::vector<ServerExchange> exchanges_;  // per bucket
};

}  // namespace dtsim::sim
