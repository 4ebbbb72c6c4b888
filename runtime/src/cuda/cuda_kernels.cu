#include "cuda_kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

// A 32-bit integer hash (splitmix-like finaliser) of the index, scaled to [-1, 1).
__device__ float hashed_value(std::size_t i) {
    unsigned x = static_cast<unsigned>(i) * 0x9E3779B9u + 0x7F4A7C15u;
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return static_cast<float>(x) * (2.0f / 4294967296.0f) - 1.0f;
}

template <typename T, typename Convert>
__global__ void fill_kernel(T* data, std::size_t n, Convert convert) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        data[i] = convert(hashed_value(i));
}

struct ToFloat {
    __device__ float operator()(float v) const { return v; }
};
struct ToHalf {
    __device__ __half operator()(float v) const { return __float2half(v); }
};
struct ToBfloat16 {
    __device__ __nv_bfloat16 operator()(float v) const { return __float2bfloat16(v); }
};

constexpr int kThreads = 256;
constexpr std::size_t kMaxBlocks = 65535;

unsigned blocks_for(std::size_t n) {
    const std::size_t wanted = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(wanted < kMaxBlocks ? wanted : kMaxBlocks);
}

}  // namespace

void launch_fill_kernel(void* data, std::size_t count, int element_bytes, bool bfloat16, cudaStream_t stream) {
    if (element_bytes == 4)
        fill_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<float*>(data), count, ToFloat{});
    else if (bfloat16)
        fill_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<__nv_bfloat16*>(data), count, ToBfloat16{});
    else
        fill_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<__half*>(data), count, ToHalf{});
}

void launch_spin_kernel(double seconds, int blocks, cudaStream_t stream) {
    spin_kernel<<<blocks, 1, 0, stream>>>(static_cast<unsigned long long>(seconds * 1e9));
}

void launch_empty_kernel(cudaStream_t stream) { empty_kernel<<<1, 1, 0, stream>>>(); }

void launch_triad_kernel(float* a, const float* b, const float* c, std::size_t n, cudaStream_t stream) {
    triad_kernel<<<blocks_for(n), kThreads, 0, stream>>>(a, b, c, n);
}

}  // namespace dtsim::runtime
