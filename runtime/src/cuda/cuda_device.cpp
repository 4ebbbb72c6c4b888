#include "cuda_device.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cublas_library.hpp"
#include "cuda_check.hpp"
#include "cuda_kernels.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/precision.hpp"

namespace dtsim::runtime {
namespace {

/// Device memory freed with the kernel that owns it.
class DeviceBuffer {
public:
    explicit DeviceBuffer(std::size_t bytes) { cuda_check(cudaMalloc(&data_, bytes), "cudaMalloc"); }
    ~DeviceBuffer() { cudaFree(data_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return data_; }

private:
    void* data_ = nullptr;
};

Precision precision_of(const std::string& dtype) {
    if (const auto precision = calibrate::kGemmDtypeNames.parse(dtype)) return *precision;
    throw std::invalid_argument("unknown GEMM type '" + dtype + "'");
}

cudaDataType_t data_type(Precision precision) {
    switch (precision) {
        case Precision::fp16: return CUDA_R_16F;
        case Precision::bf16: return CUDA_R_16BF;
        case Precision::fp32:
        case Precision::tf32: return CUDA_R_32F;
    }
    return CUDA_R_32F;
}

// TF32 multiplies fp32 operands on tensor cores; every type accumulates in fp32, as frameworks train.
cublasComputeType_t compute_type(Precision precision) {
    return precision == Precision::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

std::size_t element_size(Precision precision) { return is_mixed_precision(precision) ? 2 : 4; }

class GemmKernel : public Kernel {
public:
    GemmKernel(cublasHandle_t blas, long long m, long long n, long long k, Precision precision)
        : blas_(blas), gemm_ex_(cublas().gemm_ex), m_(static_cast<int>(m)), n_(static_cast<int>(n)), k_(static_cast<int>(k)),
          type_(data_type(precision)), compute_(compute_type(precision)), a_(static_cast<std::size_t>(m * k) * element_size(precision)),
          b_(static_cast<std::size_t>(k * n) * element_size(precision)), c_(static_cast<std::size_t>(m * n) * element_size(precision)) {
        const int bytes = static_cast<int>(element_size(precision));
        const bool bf16 = precision == Precision::bf16;
        launch_fill_kernel(a_.get(), static_cast<std::size_t>(m * k), bytes, bf16, nullptr);
        launch_fill_kernel(b_.get(), static_cast<std::size_t>(k * n), bytes, bf16, nullptr);
        cuda_check(cudaGetLastError(), "fill kernel launch");
        cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
    void start() override {
        // Column-major C(m×n) = A(m×k)·B(k×n).
        const float alpha = 1.0f, beta = 0.0f;
        cublas_check(gemm_ex_(blas_, CUBLAS_OP_N, CUBLAS_OP_N, m_, n_, k_, &alpha, a_.get(), type_, m_, b_.get(), type_, k_,
                              &beta, c_.get(), type_, m_, compute_, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmEx");
    }

private:
    cublasHandle_t blas_;
    decltype(CublasLibrary::gemm_ex) gemm_ex_;  // resolved once, not per timed launch
    int m_, n_, k_;
    cudaDataType_t type_;
    cublasComputeType_t compute_;
    DeviceBuffer a_, b_, c_;
};

class TriadKernel : public Kernel {
public:
    TriadKernel(std::size_t bytes, cudaStream_t stream)
        : n_(bytes / 3 / sizeof(float)), stream_(stream), a_(n_ * sizeof(float)), b_(n_ * sizeof(float)), c_(n_ * sizeof(float)) {}
    void start() override {
        launch_triad_kernel(static_cast<float*>(a_.get()), static_cast<const float*>(b_.get()),
                            static_cast<const float*>(c_.get()), n_, stream_);
        cuda_check(cudaGetLastError(), "triad kernel launch");
    }

private:
    std::size_t n_;
    cudaStream_t stream_;
    DeviceBuffer a_, b_, c_;
};

class EmptyKernel : public Kernel {
public:
    explicit EmptyKernel(cudaStream_t stream) : stream_(stream) {}
    void start() override {
        launch_empty_kernel(stream_);
        cuda_check(cudaGetLastError(), "empty kernel launch");
    }

private:
    cudaStream_t stream_;
};

class CopyKernel : public Kernel {
public:
    CopyKernel(bool to_device, std::size_t bytes, cudaStream_t stream)
        : to_device_(to_device), bytes_(bytes), stream_(stream), device_(bytes) {
        cuda_check(cudaMallocHost(&host_, bytes), "cudaMallocHost");
    }
    ~CopyKernel() override { cudaFreeHost(host_); }
    CopyKernel(const CopyKernel&) = delete;
    CopyKernel& operator=(const CopyKernel&) = delete;
    void start() override {
        cuda_check(to_device_ ? cudaMemcpyAsync(device_.get(), host_, bytes_, cudaMemcpyHostToDevice, stream_)
                              : cudaMemcpyAsync(host_, device_.get(), bytes_, cudaMemcpyDeviceToHost, stream_),
                   "cudaMemcpyAsync");
    }

private:
    bool to_device_;
    std::size_t bytes_;
    cudaStream_t stream_;
    DeviceBuffer device_;
    void* host_ = nullptr;
};

}  // namespace

std::optional<std::string> cuda_unavailable_reason() {
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(code);
    if (count == 0) return std::string("cudaGetDeviceCount found 0 devices");
    return cublas_unavailable_reason();
}

CudaDevice::CudaDevice(int local_rank) {
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    ordinal_ = local_rank % count;
    cuda_check(cudaSetDevice(ordinal_), "cudaSetDevice");
    cudaDeviceProp properties{};
    cuda_check(cudaGetDeviceProperties(&properties, ordinal_), "cudaGetDeviceProperties");
    name_ = properties.name;
    streaming_multiprocessors_ = properties.multiProcessorCount;
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    cublas_check(cublas().create(&blas_), "cublasCreate");
    cublas_check(cublas().set_stream(blas_, stream_), "cublasSetStream");
}

CudaDevice::~CudaDevice() {
    if (blas_) cublas().destroy(blas_);
    if (stream_) cudaStreamDestroy(stream_);
}

std::string CudaDevice::environment_json() const {
    int driver = 0, runtime = 0, blas = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    cublas().get_version(blas_, &blas);
    return nlohmann::ordered_json{{"device", "cuda"},     {"gpu", name_},          {"cuda_driver", driver},
                                  {"cuda_runtime", runtime}, {"cublas", blas},      {"device_ordinal", ordinal_}}
        .dump();
}

std::unique_ptr<Kernel> CudaDevice::gemm(long long m, long long n, long long k, const std::string& dtype) {
    return std::make_unique<GemmKernel>(blas_, m, n, k, precision_of(dtype));
}

std::unique_ptr<Kernel> CudaDevice::triad(std::size_t bytes) { return std::make_unique<TriadKernel>(bytes, stream_); }

std::unique_ptr<Kernel> CudaDevice::empty_launch() { return std::make_unique<EmptyKernel>(stream_); }

std::unique_ptr<Kernel> CudaDevice::copy(calibrate::ComputeOp direction, std::size_t bytes) {
    return std::make_unique<CopyKernel>(direction == calibrate::ComputeOp::host_to_device, bytes, stream_);
}

void CudaDevice::hold(double seconds) {
    if (seconds <= 0) return;
    launch_spin_kernel(seconds, streaming_multiprocessors_, stream_);
    cuda_check(cudaGetLastError(), "spin kernel launch");
    synchronize();
}

void CudaDevice::synchronize() { cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

}  // namespace dtsim::runtime
