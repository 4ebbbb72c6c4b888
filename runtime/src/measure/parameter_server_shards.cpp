#include "parameter_server_shards.hpp"

namespace dtsim::runtime {

std::vector<Shard> shards_of_bucket(std::size_t elements, int bucket, int servers, Sharding sharding) {
    if (sharding == Sharding::round_robin) return {Shard{bucket % servers, 0, elements}};
    std::vector<Shard> out;
    const auto p_count = static_cast<std::size_t>(servers);
    for (std::size_t p = 0; p < p_count; ++p) {
        const std::size_t first = p * elements / p_count, end = (p + 1) * elements / p_count;
        if (end > first) out.push_back(Shard{static_cast<int>(p), first, end - first});
    }
    return out;
}

}  // namespace dtsim::runtime
