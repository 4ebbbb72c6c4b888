#pragma once
// Gradient buckets: layers taken in backward order fill a bucket until it reaches the bucket size,
// as PyTorch DDP does; a bucket is ready when the backward of its last layer ends.
#include <vector>

#include "dtsim/compute_model.hpp"

namespace dtsim {

struct Bucket {
    double bytes = 0;
    double backward_s = 0;  // backward compute of the layers in this bucket
    int layers = 0;         // how many layers it holds: the next ones in backward order
};

struct BucketPlan {
    std::vector<Bucket> buckets;
    double trailing_backward_s = 0;  // backward of parameter-free layers after the last bucket is ready
    int trailing_layers = 0;
};

BucketPlan make_buckets(const std::vector<LayerWork>& layers, double bucket_bytes);

}  // namespace dtsim
