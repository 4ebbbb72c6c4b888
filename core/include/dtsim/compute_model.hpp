#pragma once
// Per-layer forward/backward times from FLOPs and bytes on a GPU (a roofline with a GEMM efficiency).
#include <optional>
#include <vector>

#include "dtsim/hardware.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

struct ComputeRates {
    double flops_per_second = 0;        // achieved: peak × GEMM efficiency, or a profile's fitted rate
    double memory_bytes_per_second = 0;  // achieved: peak × memory efficiency
    double per_kernel_s = 0;            // fixed cost of each kernel (a profile's GEMM-curve intercept)
};

/// Forward time of one layer is max(FLOPs / achieved FLOP/s, bytes moved / achieved memory bandwidth)
/// plus the fixed per-kernel cost, where bytes moved are the layer's input and output activations for the
/// batch plus its weights. Backward is taken as twice the forward (gradients for inputs and for weights).
std::vector<LayerWork> layer_times(const ZooModel& model, int batch_per_gpu, Precision precision,
                                   const ComputeRates& rates);

/// Scales every layer so that forward + backward of one GPU takes exactly `step_s`, keeping the split.
void scale_to_step_time(std::vector<LayerWork>& layers, double step_s);

}  // namespace dtsim
