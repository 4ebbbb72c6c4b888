#pragma once
// The `cuda` device: cuBLAS GEMMs (fp32/fp16/bf16), a device memory-bandwidth kernel, kernel launch
// latency and pinned host<->device copies, all on one stream per rank.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <optional>
#include <string>

#include "../device.hpp"

namespace dtsim::runtime {

/// Why no CUDA device can be used here (no driver, no device), or nullopt when one can.
std::optional<std::string> cuda_unavailable_reason();

class CudaDevice : public Device {
public:
    /// Uses device local_rank % device count (one rank per GPU on each node).
    explicit CudaDevice(int local_rank);
    ~CudaDevice() override;
    CudaDevice(const CudaDevice&) = delete;
    CudaDevice& operator=(const CudaDevice&) = delete;

    std::string name() const override { return name_; }
    std::string kind() const override { return "cuda"; }
    std::string environment_json() const override;
    std::unique_ptr<Kernel> gemm(long long m, long long n, long long k, const std::string& dtype) override;
    std::unique_ptr<Kernel> triad(std::size_t bytes) override;
    std::unique_ptr<Kernel> empty_launch() override;
    std::unique_ptr<Kernel> copy(calibrate::ComputeOp direction, std::size_t bytes) override;
    // No GPU codec kernels yet: the plan leaves the codec samples out on GPUs.
    std::unique_ptr<Kernel> codec(CodecKernel, std::size_t, int) override { return nullptr; }
    void hold(double seconds) override;
    void synchronize() override;

    int ordinal() const { return ordinal_; }
    cudaStream_t stream() const { return stream_; }

private:
    int ordinal_ = 0;
    std::string name_;
    int streaming_multiprocessors_ = 1;
    cudaStream_t stream_ = nullptr;
    cublasHandle_t blas_ = nullptr;
};

}  // namespace dtsim::runtime
