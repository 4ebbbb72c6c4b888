#include "nccl_gradients.hpp"

#include "cuda_check.hpp"

namespace dtsim::runtime {

NcclGradients::NcclGradients(ncclComm_t comm, int device, const std::vector<std::size_t>& bucket_elements)
    : comm_(comm), device_(device), elements_(bucket_elements) {
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    for (const std::size_t n : elements_) {
        float* data = nullptr;
        cuda_check(cudaMalloc(&data, n * sizeof(float)), "cudaMalloc");
        buckets_.push_back(data);
        cuda_check(cudaMemset(data, 0, n * sizeof(float)), "cudaMemset");
    }
}

NcclGradients::~NcclGradients() {
    for (float* data : buckets_) cudaFree(data);
    if (stream_) cudaStreamDestroy(stream_);
}

// Each call sets the device first: the communication thread is not the one that made the context current.
void NcclGradients::allreduce(int bucket) {
    const auto k = static_cast<std::size_t>(bucket);
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    nccl_check(ncclAllReduce(buckets_[k], buckets_[k], elements_[k], ncclFloat, ncclSum, comm_, stream_), "ncclAllReduce");
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

void NcclGradients::upload(int bucket, const std::vector<float>& values) {
    const auto k = static_cast<std::size_t>(bucket);
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    cuda_check(cudaMemcpy(buckets_[k], values.data(), elements_[k] * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
}

void NcclGradients::download(int bucket, std::vector<float>& values) {
    const auto k = static_cast<std::size_t>(bucket);
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    values.resize(elements_[k]);
    cuda_check(cudaMemcpy(values.data(), buckets_[k], elements_[k] * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
}

}  // namespace dtsim::runtime
