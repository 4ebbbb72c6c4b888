#include "cpu_device.hpp"

#include <cblas.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "codec_kernels.hpp"
#include "measure/modelled_compute.hpp"

namespace dtsim::runtime {
namespace {

class SgemmKernel : public Kernel {
public:
    SgemmKernel(long long m, long long n, long long k)
        : m_(static_cast<int>(m)), n_(static_cast<int>(n)), k_(static_cast<int>(k)),
          a_(static_cast<size_t>(m * k), 1.0f), b_(static_cast<size_t>(k * n), 0.5f), c_(static_cast<size_t>(m * n), 0.0f) {}
    void start() override {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m_, n_, k_, 1.0f, a_.data(), k_, b_.data(), n_, 0.0f,
                    c_.data(), n_);
    }

private:
    int m_, n_, k_;
    std::vector<float> a_, b_, c_;
};

class TriadKernel : public Kernel {
public:
    explicit TriadKernel(std::size_t bytes)
        : a_(bytes / 3 / sizeof(float)), b_(a_.size(), 1.0f), c_(a_.size(), 2.0f) {}
    void start() override {
        const float scale = 3.0f;
        float* a = a_.data();
        const float* b = b_.data();
        const float* c = c_.data();
        for (size_t i = 0, n = a_.size(); i < n; ++i) a[i] = b[i] + scale * c[i];
        sink_ = a[a_.size() / 2];  // keeps the loop from being optimised away
    }

private:
    std::vector<float> a_, b_, c_;
    volatile float sink_ = 0;
};

std::string cpu_model() {
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    while (std::getline(info, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

}  // namespace

CpuDevice::CpuDevice() {
    // A CPU worker is one core: ranks share the machine the way GPU workers share a node, and BLAS
    // threads would otherwise fight over the same cores.
    openblas_set_num_threads(1);
}

std::string CpuDevice::environment_json() const {
    nlohmann::ordered_json json{{"device", "cpu"},
                                {"cpu_model", cpu_model()},
                                {"blas", openblas_get_config()},
                                {"blas_threads", openblas_get_num_threads()}};
    return json.dump();
}

std::unique_ptr<Kernel> CpuDevice::gemm(long long m, long long n, long long k, const std::string& dtype) {
    if (dtype != "float32") throw std::invalid_argument("the cpu device runs float32 GEMMs only, not " + dtype);
    return std::make_unique<SgemmKernel>(m, n, k);
}

std::unique_ptr<Kernel> CpuDevice::triad(std::size_t bytes) { return std::make_unique<TriadKernel>(bytes); }

std::unique_ptr<Kernel> CpuDevice::codec(CodecKernel kernel, std::size_t fp32_bytes, int powersgd_rank) {
    return make_codec_kernel(kernel, fp32_bytes, powersgd_rank);
}

std::unique_ptr<Kernel> CpuDevice::empty_launch() { return std::make_unique<SgemmKernel>(1, 1, 1); }

void CpuDevice::hold(double seconds) { hold_device(seconds, ComputeMode::busy); }

}  // namespace dtsim::runtime
