#pragma once
// The gradient-compression kernels of the measured runs (measure/half_precision, int8_quantization,
// topk_compression, powersgd) as calibration kernels over one bucket of fp32 gradients, so that `calibrate`
// times exactly what a measured run's encode and decode spans time.
#include <cstddef>
#include <memory>
#include <string>

#include "device.hpp"

namespace dtsim::runtime {

/// `fp32_bytes` is the uncompressed bucket; `powersgd_rank` the rank of PowerSGD's factors (its kernels only).
/// Throws std::invalid_argument for an unknown kernel.
std::unique_ptr<Kernel> make_codec_kernel(CodecKernel kernel, std::size_t fp32_bytes, int powersgd_rank);

}  // namespace dtsim::runtime
