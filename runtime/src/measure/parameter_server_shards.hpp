#pragma once
// Which server holds which part of a bucket: by size, every bucket is split into near-equal shards, one
// per server; round-robin, bucket k lies whole on server k mod P (the simulator's `sharding`).
#include <cstddef>
#include <vector>

#include "dtsim/scenario.hpp"

namespace dtsim::runtime {

struct Shard {
    int server = 0;          // 0..P-1
    std::size_t first = 0;   // first element of the bucket
    std::size_t count = 0;
};

std::vector<Shard> shards_of_bucket(std::size_t elements, int bucket, int servers, Sharding sharding);

}  // namespace dtsim::runtime
