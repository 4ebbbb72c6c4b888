#include "dtsim/compute_model.hpp"

#include <algorithm>

namespace dtsim {

namespace {

GemmShape batched(const GemmShape& shape, double batch) { return GemmShape{shape.rows * batch, shape.columns, shape.depth}; }

// One product of a kernel at `batch` samples whose GEMM has `shape`: its roofline, with the GEMM rate
// scaled by how well that shape fills the GPU's SMs.
double product_s(const Kernel& kernel, double batch, double element_bytes, const ComputeRates& rates, const GemmShape& shape) {
    const double bytes = (batch * kernel.elements + kernel.weight_elements) * element_bytes;
    const double rate = kernel.kind == KernelKind::attention_core
                            ? rates.attention_flops_per_second
                            : rates.flops_per_second * gemm_shape_factor(shape, rates.streaming_multiprocessors);
    return std::max(batch * (kernel.flops + kernel.overhead_flops) / rate, bytes / rates.memory_bytes_per_second);
}

}  // namespace

double kernel_forward_s(const Kernel& kernel, double batch, double element_bytes, const ComputeRates& rates) {
    return product_s(kernel, batch, element_bytes, rates, batched(kernel.shape, batch));
}

double kernel_backward_s(const Kernel& kernel, double batch, double element_bytes, const ComputeRates& rates) {
    if (kernel.kind != KernelKind::gemm || kernel.shape.rows <= 0)
        return kernel.backward_factor * kernel_forward_s(kernel, batch, element_bytes, rates);
    const auto forward = batched(kernel.shape, batch);
    const GemmShape input_gradient{forward.rows, forward.depth / kernel.window, forward.columns * kernel.window};
    return product_s(kernel, batch, element_bytes, rates, input_gradient) +
           product_s(kernel, batch, element_bytes, rates, GemmShape{forward.depth, forward.columns, forward.rows});
}

PassTimes kernel_times(const std::vector<Kernel>& kernels, double batch, double element_bytes, const ComputeRates& rates) {
    PassTimes times;
    for (const auto& kernel : kernels) {
        times.forward_s += kernel_forward_s(kernel, batch, element_bytes, rates);
        times.backward_s += kernel_backward_s(kernel, batch, element_bytes, rates);
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
