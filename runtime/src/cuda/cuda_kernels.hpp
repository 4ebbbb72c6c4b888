#pragma once
// Device kernels written in CUDA (cuda_kernels.cu); callable from host C++.
#include <cuda_runtime.h>

#include <cstddef>

namespace dtsim::runtime {

void launch_empty_kernel(cudaStream_t stream);
/// a = b + 3·c over n floats: reads two arrays and writes one, like STREAM's triad.
void launch_triad_kernel(float* a, const float* b, const float* c, std::size_t n, cudaStream_t stream);
/// One single-thread block per SM, each spinning on the GPU's global timer for `seconds`: the device is
/// held as a kernel over every SM would hold it, while other streams' kernels (NCCL's) can still run.
void launch_spin_kernel(double seconds, int blocks, cudaStream_t stream);
/// Fills `count` elements of `element_bytes` (4: fp32, 2: fp16 or bf16 as `bfloat16` says) with hashed
/// values in [-1, 1): tensor cores draw less power on zeros and run faster than on real operands.
void launch_fill_kernel(void* data, std::size_t count, int element_bytes, bool bfloat16, cudaStream_t stream);

}  // namespace dtsim::runtime
