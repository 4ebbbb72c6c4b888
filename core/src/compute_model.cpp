#include "dtsim/compute_model.hpp"

#include <algorithm>

namespace dtsim {

double kernel_forward_s(const Kernel& kernel, double batch, double element_bytes, const ComputeRates& rates) {
    const double bytes = (batch * kernel.elements + kernel.weight_elements) * element_bytes;
    const double rate = kernel.kind == KernelKind::attention_core ? rates.attention_flops_per_second : rates.flops_per_second;
    return std::max(batch * (kernel.flops + kernel.overhead_flops) / rate, bytes / rates.memory_bytes_per_second);
}

PassTimes kernel_times(const std::vector<Kernel>& kernels, double batch, double element_bytes, const ComputeRates& rates) {
    PassTimes times;
    for (const auto& kernel : kernels) {
        const double forward_s = kernel_forward_s(kernel, batch, element_bytes, rates);
        times.forward_s += forward_s;
        times.backward_s += kernel.backward_factor * forward_s;
    }
    return times;
}

std::vector<LayerWork> layer_times(const ZooModel& model, int batch_per_gpu, Precision precision,
                                   const ComputeRates& rates) {
    const double element_bytes = bytes_per_element(precision);
    const double batch = batch_per_gpu;
    std::vector<LayerWork> layers;
    layers.reserve(model.layers.size());
    double input_activations = 0;
    for (const auto& layer : model.layers) {
        if (!layer.kernels.empty()) {
            const auto pass = kernel_times(layer.kernels, batch, element_bytes, rates);
            layers.push_back(LayerWork{layer.name, layer.params * element_bytes, pass.forward_s + rates.per_kernel_s,
                                       pass.backward_s + 2 * rates.per_kernel_s});
            input_activations = layer.activations_per_sample;
            continue;
        }
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
