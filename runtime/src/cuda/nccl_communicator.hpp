#pragma once
// The `nccl` communicator: one NCCL communicator per rank, bootstrapped over MPI (rank 0's unique id is
// broadcast), operations enqueued on the device's CUDA stream.
#include <nccl.h>

#include <map>

#include "../communicator.hpp"
#include "../mpi_context.hpp"
#include "cuda_device.hpp"

namespace dtsim::runtime {

class NcclCommunicator : public Communicator {
public:
    NcclCommunicator(const MpiContext& context, CudaDevice& device);
    ~NcclCommunicator() override;
    NcclCommunicator(const NcclCommunicator&) = delete;
    NcclCommunicator& operator=(const NcclCommunicator&) = delete;

    std::string name() const override { return "nccl"; }
    std::string version() const override;
    void prepare(std::size_t bytes, const std::vector<int>& group_sizes) override;
    void start_collective(NetworkOp op, std::size_t bytes, int ranks) override;
    void start_send(int peer, std::size_t bytes) override;
    void start_recv(int peer, std::size_t bytes) override;
    void start_sendrecv(int to, int from, std::size_t bytes) override;
    void synchronize() override;
    std::unique_ptr<DeviceGradients> device_gradients(const std::vector<std::size_t>& bucket_elements) override;
    std::unique_ptr<LayoutChannel> layout_channel(const ParallelLayout& layout, int rank) override;

private:
    const MpiContext& context_;
    CudaDevice& device_;
    ncclComm_t world_ = nullptr;
    std::map<int, ncclComm_t> groups_;  // group size -> communicator (nullptr outside the group)
    void* send_ = nullptr;
    void* receive_ = nullptr;
};

}  // namespace dtsim::runtime
