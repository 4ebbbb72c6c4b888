#include "cuda_kernels.hpp"

namespace dtsim::runtime {
namespace {

__global__ void empty_kernel() {}

__global__ void triad_kernel(float* a, const float* b, const float* c, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        a[i] = b[i] + 3.0f * c[i];
}

__device__ unsigned long long global_timer_ns() {
    unsigned long long now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

__global__ void spin_kernel(unsigned long long nanoseconds) {
    const unsigned long long start = global_timer_ns();
    while (global_timer_ns() - start < nanoseconds) {
    }
}

}  // namespace

void launch_spin_kernel(double seconds, int blocks, cudaStream_t stream) {
    spin_kernel<<<blocks, 1, 0, stream>>>(static_cast<unsigned long long>(seconds * 1e9));
}

void launch_empty_kernel(cudaStream_t stream) { empty_kernel<<<1, 1, 0, stream>>>(); }

void launch_triad_kernel(float* a, const float* b, const float* c, std::size_t n, cudaStream_t stream) {
    constexpr int kThreads = 256;
    constexpr std::size_t kMaxBlocks = 65535;
    const std::size_t wanted = (n + kThreads - 1) / kThreads;
    const auto blocks = static_cast<unsigned>(wanted < kMaxBlocks ? wanted : kMaxBlocks);
    triad_kernel<<<blocks, kThreads, 0, stream>>>(a, b, c, n);
}

}  // namespace dtsim::runtime
