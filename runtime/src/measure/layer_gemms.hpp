#pragma once
// Compute as real work on the device: each layer's forward as one square fp32 GEMM with that layer's
// FLOPs for the per-GPU batch, its backward as two (gradients for the inputs and for the weights, the
// compute model's "backward = 2 × forward"). Layers of equal FLOPs share one kernel and its buffers.
#include <map>
#include <memory>
#include <vector>

#include "../device.hpp"
#include "dtsim/model_zoo.hpp"

namespace dtsim::runtime {

class LayerGemms {
public:
    LayerGemms(Device& device, const ZooModel& model, int batch_per_gpu);
    std::size_t layers() const { return per_layer_.size(); }
    void forward(std::size_t layer);
    void backward(std::size_t layer);

private:
    Device& device_;
    std::vector<Kernel*> per_layer_;  // nullptr: a layer without FLOPs
    std::map<long long, std::unique_ptr<Kernel>> by_side_;
};

}  // namespace dtsim::runtime
