#include "ps_sharding.hpp"

namespace dtsim::sim {

namespace {

// The cohort's workers as endpoints of `size` GPUs (a node drops out whole, so they stay whole).
std::vector<Endpoint> cohort_endpoints(const std::vector<int>& ranks, int size) {
    std::vector<Endpoint> endpoints;
    for (size_t i = 0; i < ranks.size(); i += static_cast<size_t>(size))
        endpoints.push_back({static_cast<int>(endpoints.size()), ranks[i], size});
    return endpoints;
}

}  // namespace

ServerSharding::ServerSharding(const SimulationContext& ctx)
    : buckets_(ctx.plan.buckets),
      sharding_(ctx.scenario.training.strategy.sharding),
      server_count_(ctx.scenario.training.strategy.servers),
      endpoint_size_(parameter_server_endpoint_gpus(ctx.scenario.training, ctx.scenario.cluster)),
      copies_per_endpoint_(ctx.scenario.training.strategy.local_aggregation ? 1 : endpoint_size_),
      endpoints_(cohort_endpoints(ctx.cohort.ranks, endpoint_size_)) {
    for (const auto& bucket : buckets_) exchanges_.push_back(compress_for_servers(ctx.scenario, ctx.costs, bucket.bytes));
}

bool ServerSharding::holds(int p, size_t bucket) const {
    return sharding_ == Sharding::by_size || static_cast<size_t>(p) == bucket % static_cast<size_t>(server_count_);
}

std::vector<int> ServerSharding::servers_of(size_t bucket) const {
    std::vector<int> out;
    for (int p = 0; p < server_count(); ++p)
        if (holds(p, bucket)) out.push_back(p);
    return out;
}

double ServerSharding::shard_bytes(size_t bucket) const {
    const double shards = sharding_ == Sharding::by_size ? server_count() : 1;
    return copies_per_endpoint_ * buckets_[bucket].bytes / shards;
}

}  // namespace dtsim::sim
