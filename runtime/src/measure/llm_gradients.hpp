#pragma once
// Which gradient buckets a rank of an LLM layout reduces over its data-parallel groups, and when: per
// model chunk, its layers' gradients in backward order gathered into buckets of training.strategy.bucket
// bytes, dense and expert layers apart (expert gradients are reduced over dp alone, dense ones over
// cp·ep·dp). A bucket is ready once the backward of its last layer is done.
#include <cstddef>
#include <vector>

#include "../layout_channel.hpp"
#include "dtsim/llm_costs.hpp"

namespace dtsim::runtime {

struct GradientBucket {
    LayoutGroup group = LayoutGroup::data;
    std::size_t bytes = 0;
};

/// [chunk][layer, in forward order]: the buckets that layer's backward completes.
using GradientBuckets = std::vector<std::vector<std::vector<GradientBucket>>>;

GradientBuckets gradient_buckets(const LlmCosts& costs, int stage, int stages, int chunks, double bucket_bytes);

}  // namespace dtsim::runtime
