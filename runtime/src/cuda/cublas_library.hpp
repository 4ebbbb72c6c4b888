#pragma once
// cuBLAS, opened when the first CUDA device is made rather than when dtsim-runtime starts: its library
// initialisers take about half a second of CPU in every process that links it, which each rank of an
// MPI-only run (the CPU backend, the testbed, the tests) would otherwise pay.
#include <cublas_v2.h>

#include <optional>
#include <string>

namespace dtsim::runtime {

/// The cuBLAS calls the CUDA device makes.
struct CublasLibrary {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) set_stream = nullptr;
    decltype(&cublasGetVersion_v2) get_version = nullptr;
    // The C entry point (C++ also sees an inline overload taking the compute type as a cudaDataType).
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                              const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                              cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};

/// Why cuBLAS cannot be opened here (the library or a symbol is missing), or nullopt when it can.
std::optional<std::string> cublas_unavailable_reason();
/// The opened library; throws std::runtime_error with cublas_unavailable_reason() when it cannot be opened.
const CublasLibrary& cublas();

}  // namespace dtsim::runtime
