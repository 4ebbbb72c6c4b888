#include "nccl_layout_channel.hpp"

#include "../layout_groups.hpp"
#include "cuda_check.hpp"

namespace dtsim::runtime {

NcclLayoutChannel::NcclLayoutChannel(ncclComm_t world, int device, const ParallelLayout& layout, int rank) : device_(device) {
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    for (LayoutGroup group : kLayoutGroups) {
        const auto members = layout_group(layout, rank, group);
        const auto g = static_cast<std::size_t>(group);
        nccl_check(ncclCommSplit(world, members.first, members.position, &comms_[g], nullptr), "ncclCommSplit");
        sizes_[g] = members.count;
    }
}

NcclLayoutChannel::~NcclLayoutChannel() {
    for (ncclComm_t comm : comms_)
        if (comm) ncclCommDestroy(comm);
    cudaFree(send_);
    cudaFree(receive_);
    if (stream_) cudaStreamDestroy(stream_);
}

void NcclLayoutChannel::reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    cudaFree(send_);
    cudaFree(receive_);
    cuda_check(cudaMalloc(&send_, bytes), "cudaMalloc");
    cuda_check(cudaMalloc(&receive_, bytes), "cudaMalloc");
    capacity_ = bytes;
}

// Each call sets the device first: the channel's thread is not the one that made the context current.
void NcclLayoutChannel::collective(LayoutGroup group, GroupOp op, std::size_t bytes) {
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    const auto g = static_cast<std::size_t>(group);
    ncclComm_t comm = comms_[g];
    const auto members = static_cast<std::size_t>(sizes_[g]);
    const std::size_t count = (bytes + sizeof(float) - 1) / sizeof(float), share = count / members;
    reserve(count * sizeof(float));
    switch (op) {
        case GroupOp::allreduce:
            nccl_check(ncclAllReduce(send_, receive_, count, ncclFloat, ncclSum, comm, stream_), "ncclAllReduce");
            break;
        case GroupOp::reduce_scatter:
            nccl_check(ncclReduceScatter(send_, receive_, share, ncclFloat, ncclSum, comm, stream_), "ncclReduceScatter");
            break;
        case GroupOp::allgather: nccl_check(ncclAllGather(send_, receive_, share, ncclFloat, comm, stream_), "ncclAllGather"); break;
        case GroupOp::alltoall:
            // NCCL has no all-to-all primitive: grouped sends and receives, as NcclCommunicator's.
            nccl_check(ncclGroupStart(), "ncclGroupStart");
            for (std::size_t peer = 0; peer < members; ++peer) {
                const std::size_t offset = peer * share * sizeof(float);
                nccl_check(ncclSend(static_cast<char*>(send_) + offset, share, ncclFloat, static_cast<int>(peer), comm, stream_), "ncclSend");
                nccl_check(ncclRecv(static_cast<char*>(receive_) + offset, share, ncclFloat, static_cast<int>(peer), comm, stream_), "ncclRecv");
            }
            nccl_check(ncclGroupEnd(), "ncclGroupEnd");
            break;
    }
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

}  // namespace dtsim::runtime
