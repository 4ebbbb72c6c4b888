#include "dtsim/compute_model.hpp"

#include <algorithm>

namespace dtsim {

std::vector<LayerWork> layer_times(const ZooModel& model, int batch_per_gpu, Precision precision,
                                   const ComputeRates& rates) {
    const double element_bytes = bytes_per_element(precision);
    const double batch = batch_per_gpu;
    std::vector<LayerWork> layers;
    layers.reserve(model.layers.size());
    double input_activations = 0;
    for (const auto& layer : model.layers) {
        const double compute_s = batch * layer.forward_flops_per_sample / rates.flops_per_second;
        const double moved_bytes =
            (batch * (input_activations + layer.activations_per_sample) + layer.params) * element_bytes;
        const double memory_s = moved_bytes / rates.memory_bytes_per_second;
        const double forward_s = std::max(compute_s, memory_s) + rates.per_kernel_s;
        layers.push_back(LayerWork{layer.name, layer.params * element_bytes, forward_s, 2 * forward_s});
        input_activations = layer.activations_per_sample;
    }
    return layers;
}

void add_recompute(std::vector<LayerWork>& layers, double fraction) {
    for (auto& layer : layers) layer.backward_s += fraction * layer.forward_s;
}

void scale_to_step_time(std::vector<LayerWork>& layers, double step_s) {
    double total = 0;
    for (const auto& layer : layers) total += layer.forward_s + layer.backward_s;
    if (total <= 0) return;
    const double factor = step_s / total;
    for (auto& layer : layers) {
        layer.forward_s *= factor;
        layer.backward_s *= factor;
    }
}

}  // namespace dtsim
