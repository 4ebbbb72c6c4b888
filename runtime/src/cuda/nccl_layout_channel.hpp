#pragma once
// The NCCL layout channel: one NCCL communicator per group (ncclCommSplit of the world communicator,
// coloured by the group's first rank) and a stream of its own, so that its collectives run beside the
// compute the device holds, as NcclGradients' do.
#include <cuda_runtime.h>
#include <nccl.h>

#include <array>
#include <cstddef>

#include "../layout_channel.hpp"
#include "dtsim/parallel_layout.hpp"

namespace dtsim::runtime {

class NcclLayoutChannel : public LayoutChannel {
public:
    /// Collective over `world`'s ranks; `device` is the rank's CUDA device ordinal.
    NcclLayoutChannel(ncclComm_t world, int device, const ParallelLayout& layout, int rank);
    ~NcclLayoutChannel() override;
    NcclLayoutChannel(const NcclLayoutChannel&) = delete;
    NcclLayoutChannel& operator=(const NcclLayoutChannel&) = delete;

    int size(LayoutGroup group) const override { return sizes_[static_cast<std::size_t>(group)]; }
    void collective(LayoutGroup group, GroupOp op, std::size_t bytes) override;

private:
    void reserve(std::size_t bytes);
    int device_;
    cudaStream_t stream_ = nullptr;
    std::array<ncclComm_t, 5> comms_{};
    std::array<int, 5> sizes_{};
    void* send_ = nullptr;
    void* receive_ = nullptr;
    std::size_t capacity_ = 0;
};

}  // namespace dtsim::runtime
