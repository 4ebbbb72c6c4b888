#pragma once
// A measured run's gradient buckets on the GPU, all-reduced with NCCL on a communication stream of their
// own, as PyTorch DDP runs NCCL beside the backward kernels (docs/measure.md, "GPUs").
#include <cuda_runtime.h>
#include <nccl.h>

#include <vector>

#include "../device_gradients.hpp"

namespace dtsim::runtime {

class NcclGradients : public DeviceGradients {
public:
    /// `comm` spans every rank and outlives this; `device` is the rank's CUDA device ordinal.
    NcclGradients(ncclComm_t comm, int device, const std::vector<std::size_t>& bucket_elements);
    ~NcclGradients() override;
    NcclGradients(const NcclGradients&) = delete;
    NcclGradients& operator=(const NcclGradients&) = delete;

    void allreduce(int bucket) override;
    void upload(int bucket, const std::vector<float>& values) override;
    void download(int bucket, std::vector<float>& values) override;

private:
    ncclComm_t comm_;
    int device_;
    cudaStream_t stream_ = nullptr;
    std::vector<float*> buckets_;
    std::vector<std::size_t> elements_;
};

}  // namespace dtsim::runtime
