#include "cublas_library.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace dtsim::runtime {
namespace {

// The soname of the cuBLAS this was compiled against (libcublas.so.13 for CUDA 13).
const std::string kLibrary = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

struct Opened {
    CublasLibrary calls;
    std::optional<std::string> failure;
};

template <typename Function>
void resolve(void* handle, const char* symbol, Function& function, std::optional<std::string>& failure) {
    function = reinterpret_cast<Function>(dlsym(handle, symbol));
    if (!function && !failure) failure = kLibrary + " has no " + symbol;
}

Opened open_library() {
    Opened opened;
    void* handle = dlopen(kLibrary.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open for the process's lifetime
    if (!handle) {
        const char* error = dlerror();
        opened.failure = "cannot open " + kLibrary + (error ? std::string(": ") + error : std::string());
        return opened;
    }
    resolve(handle, "cublasCreate_v2", opened.calls.create, opened.failure);
    resolve(handle, "cublasDestroy_v2", opened.calls.destroy, opened.failure);
    resolve(handle, "cublasSetStream_v2", opened.calls.set_stream, opened.failure);
    resolve(handle, "cublasGetVersion_v2", opened.calls.get_version, opened.failure);
    resolve(handle, "cublasGemmEx", opened.calls.gemm_ex, opened.failure);
    return opened;
}

const Opened& opened() {
    static const Opened library = open_library();
    return library;
}

}  // namespace

std::optional<std::string> cublas_unavailable_reason() { return opened().failure; }

const CublasLibrary& cublas() {
    if (opened().failure) throw std::runtime_error(*opened().failure);
    return opened().calls;
}

}  // namespace dtsim::runtime
