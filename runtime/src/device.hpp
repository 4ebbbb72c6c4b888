#pragma once
// A device runs the compute side of the microbenchmarks: GEMMs, a memory-bandwidth kernel, the cost of
// launching a kernel, host<->device copies, and gradient-compression kernels. Kernels are started in order; synchronize() waits.
#include <cstddef>
#include <memory>
#include <string>

#include "dtsim/calibrate/calibration_ops.hpp"
#include "dtsim/codec_kernel.hpp"

namespace dtsim::runtime {

class Kernel {
public:
    virtual ~Kernel() = default;
    virtual void start() = 0;
};

class Device {
public:
    virtual ~Device() = default;
    virtual std::string name() const = 0;  // "cpu", or the CUDA device's name
    virtual std::string kind() const = 0;  // "cpu" or "cuda"
    /// Versions and settings worth recording with the samples (driver, BLAS threads ...), as JSON text.
    virtual std::string environment_json() const = 0;

    virtual std::unique_ptr<Kernel> gemm(long long m, long long n, long long k, const std::string& dtype) = 0;
    /// STREAM-triad-like a = b + s·c moving `bytes` in total (three arrays of bytes/3).
    virtual std::unique_ptr<Kernel> triad(std::size_t bytes) = 0;
    /// The smallest unit of work the device can be asked to do: an empty kernel, or a 1×1×1 BLAS call.
    virtual std::unique_ptr<Kernel> empty_launch() = 0;
    /// Host<->device copies of `bytes`; nullptr where there is no separate device memory.
    virtual std::unique_ptr<Kernel> copy(calibrate::ComputeOp direction, std::size_t bytes) = 0;
    /// A gradient-compression kernel over `fp32_bytes` of fp32 gradients (PowerSGD's factors of rank
    /// `powersgd_rank`); nullptr where the device has no such kernels.
    virtual std::unique_ptr<Kernel> codec(CodecKernel kernel, std::size_t fp32_bytes, int powersgd_rank) = 0;

    /// Keeps the device busy for `seconds` and returns when it is done: a measured run's compute given as
    /// modelled times. The CPU spins the calling core; a GPU runs a kernel that spins on every SM.
    virtual void hold(double seconds) = 0;

    virtual void synchronize() = 0;
};

}  // namespace dtsim::runtime
