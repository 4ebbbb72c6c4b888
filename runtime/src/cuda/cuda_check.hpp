#pragma once
// Error checks for the CUDA, cuBLAS and NCCL calls: every failure becomes an exception naming the call.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <stdexcept>
#include <string>

namespace dtsim::runtime {

inline void cuda_check(cudaError_t code, const char* what) {
    if (code != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(code));
}
inline void cublas_check(cublasStatus_t code, const char* what) {
    if (code != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: cuBLAS status " + std::to_string(static_cast<int>(code)));
}
inline void nccl_check(ncclResult_t code, const char* what) {
    if (code != ncclSuccess) throw std::runtime_error(std::string(what) + " failed: " + ncclGetErrorString(code));
}

}  // namespace dtsim::runtime
