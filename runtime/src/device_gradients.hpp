#pragma once
// A measured run's gradient buckets in device memory, summed over the workers by the communicator's own
// library: the GPU path of an all-reduce strategy (NCCL). The MPI backend has none: its measured runs
// all-reduce host buffers with the runtime's own ring (measure/ring_allreduce.hpp).
#include <cstddef>
#include <vector>

namespace dtsim::runtime {

class DeviceGradients {
public:
    virtual ~DeviceGradients() = default;
    /// Sums bucket `bucket` over every rank, in place, and returns when it is done. Called from the
    /// worker's communication thread, while its compute runs on the device's own stream.
    virtual void allreduce(int bucket) = 0;
    /// Copies a bucket's fp32 values from (to) the host: --verify's known gradients, outside the timed spans.
    virtual void upload(int bucket, const std::vector<float>& values) = 0;
    virtual void download(int bucket, std::vector<float>& values) = 0;
};

}  // namespace dtsim::runtime
