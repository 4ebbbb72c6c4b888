#include "dtsim/buckets.hpp"

namespace dtsim {

BucketPlan make_buckets(const std::vector<LayerWork>& layers, double bucket_bytes) {
    BucketPlan plan;
    Bucket current;
    for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer) {
        current.bytes += layer->gradient_bytes;
        current.backward_s += layer->backward_s;
        ++current.layers;
        if (current.bytes >= bucket_bytes) {
            plan.buckets.push_back(current);
            current = Bucket{};
        }
    }
    if (current.bytes > 0 || plan.buckets.empty())
        plan.buckets.push_back(current);
    else {
        plan.trailing_backward_s = current.backward_s;
        plan.trailing_layers = current.layers;
    }
    return plan;
}

}  // namespace dtsim
