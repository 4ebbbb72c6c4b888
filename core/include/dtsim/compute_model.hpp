#pragma once
// Per-layer forward/backward times from FLOPs and bytes on a GPU (a roofline with a GEMM efficiency).
#include <string>
#include <vector>

#include "dtsim/model_zoo.hpp"
#include "dtsim/precision.hpp"

namespace dtsim {

/// One layer's work on one GPU in one iteration, with the per-GPU batch applied.
struct LayerWork {
    std::string name;
    double gradient_bytes = 0;
    double forward_s = 0;
    double backward_s = 0;
};

struct ComputeRates {
    double flops_per_second = 0;        // achieved: peak × GEMM efficiency, or a profile's fitted rate
    double memory_bytes_per_second = 0;  // achieved: peak × memory efficiency
    double per_kernel_s = 0;            // fixed cost of each kernel (a profile's GEMM-curve intercept)
    double attention_flops_per_second = 0;  // attention's core (KernelKind::attention_core): peak × attention
                                            // efficiency, or the GEMM rate × the preset's attention ÷ GEMM
    int streaming_multiprocessors = 0;  // the GPU's SMs, for GEMM shapes (gemm_shape.hpp); 0: every GEMM at the rate
};

/// The fixed cost of a kernel where nothing was measured (a GPU preset, a datasheet profile): the host
/// launch and submit path, "about 4–6 µs" (docs/hardware-sources.md §7). A
/// calibrated profile replaces it with its GEMM fit's intercept.
inline constexpr double kKernelLaunchOverheadS = 5e-6;

/// One kernel's forward time at `batch` samples: its roofline (model_zoo.hpp, Kernel), its FLOPs and overhead
/// at its kind's rate; a GEMM with a shape at the GEMM rate × gemm_shape_factor of that shape.
double kernel_forward_s(const Kernel& kernel, double batch, double element_bytes, const ComputeRates& rates);

/// Its backward: a GEMM with a shape runs the input-gradient and weight-gradient products, each its own
/// shape's roofline; any other kernel `backward_factor` times its forward.
double kernel_backward_s(const Kernel& kernel, double batch, double element_bytes, const ComputeRates& rates);

struct PassTimes {
    double forward_s = 0;
    double backward_s = 0;
};

/// The kernels run one after another: forward is the sum of their rooflines, backward the sum of their
/// backwards (kernel_backward_s).
PassTimes kernel_times(const std::vector<Kernel>& kernels, double batch, double element_bytes, const ComputeRates& rates);

/// A layer with kernels (transformer blocks) takes their times plus the fixed per-kernel cost once per pass
/// (the launches of a layer's kernels overlap the ones before). Any other layer: forward time is
/// max(FLOPs / achieved FLOP/s, bytes moved / achieved memory bandwidth) plus the fixed per-kernel cost,
/// where bytes moved are the layer's input and output activations for the batch plus its weights. Backward is taken as twice the forward (gradients for inputs and for weights).
/// The fixed cost is what makes small batches under-use the GPU: a layer of f FLOPs per sample runs at
/// b·f / (b·f/R + t0) FLOP/s at batch b, the GEMM fit's efficiency curve, so time per sample falls with
/// the batch towards f/R (or the memory bound) as the fixed cost is spread over more samples.
std::vector<LayerWork> layer_times(const ZooModel& model, int batch_per_gpu, Precision precision,
                                   const ComputeRates& rates);

/// Activation checkpointing: backward recomputes `fraction` of every layer's forward (1 = all of it, as
/// checkpointing every layer does), so each layer's backward grows by fraction × its forward.
void add_recompute(std::vector<LayerWork>& layers, double fraction);

/// Scales every layer so that forward + backward of one GPU takes exactly `step_s`, keeping the split.
void scale_to_step_time(std::vector<LayerWork>& layers, double step_s);

}  // namespace dtsim
