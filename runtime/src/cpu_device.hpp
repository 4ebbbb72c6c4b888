#pragma once
// The `cpu` device: OpenBLAS GEMMs, a STREAM-like triad and the measured runs' codec kernels on one core
// per rank (a CPU worker).
#include "device.hpp"

namespace dtsim::runtime {

class CpuDevice : public Device {
public:
    CpuDevice();
    std::string name() const override { return "cpu"; }
    std::string kind() const override { return "cpu"; }
    std::string environment_json() const override;
    std::unique_ptr<Kernel> gemm(long long m, long long n, long long k, const std::string& dtype) override;
    std::unique_ptr<Kernel> triad(std::size_t bytes) override;
    std::unique_ptr<Kernel> empty_launch() override;
    std::unique_ptr<Kernel> copy(calibrate::ComputeOp, std::size_t) override { return nullptr; }
    std::unique_ptr<Kernel> codec(CodecKernel kernel, std::size_t fp32_bytes, int powersgd_rank) override;
    void hold(double seconds) override;
    void synchronize() override {}
};

}  // namespace dtsim::runtime
