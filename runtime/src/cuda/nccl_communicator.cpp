#include "nccl_communicator.hpp"

#include <cstring>
#include <stdexcept>

#include "cuda_check.hpp"
#include "nccl_gradients.hpp"
#include "nccl_layout_channel.hpp"

namespace dtsim::runtime {

NcclCommunicator::NcclCommunicator(const MpiContext& context, CudaDevice& device) : context_(context), device_(device) {
    ncclUniqueId id{};
    if (context.rank() == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    std::string bytes(reinterpret_cast<const char*>(&id), sizeof(id));
    bytes = context.broadcast(bytes, 0);
    std::memcpy(&id, bytes.data(), sizeof(id));
    nccl_check(ncclCommInitRank(&world_, context.size(), id, context.rank()), "ncclCommInitRank");
}

NcclCommunicator::~NcclCommunicator() {
    for (auto& [size, comm] : groups_)
        if (comm && comm != world_) ncclCommDestroy(comm);
    if (world_) ncclCommDestroy(world_);
    cudaFree(send_);
    cudaFree(receive_);
}

std::string NcclCommunicator::version() const {
    int code = 0;
    ncclGetVersion(&code);
    // NCCL_VERSION_CODE is major*10000 + minor*100 + patch since 2.9.
    return "NCCL " + std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." + std::to_string(code % 100);
}

void NcclCommunicator::prepare(std::size_t bytes, const std::vector<int>& group_sizes) {
    cudaFree(send_);
    cudaFree(receive_);
    cuda_check(cudaMalloc(&send_, bytes + 16), "cudaMalloc");
    cuda_check(cudaMalloc(&receive_, bytes + 16), "cudaMalloc");
    cuda_check(cudaMemset(send_, 0, bytes + 16), "cudaMemset");
    for (int size : group_sizes) {
        if (groups_.count(size)) continue;
        if (size == context_.size()) {
            groups_[size] = world_;
            continue;
        }
        ncclComm_t comm = nullptr;
        const int color = context_.rank() < size ? 0 : NCCL_SPLIT_NOCOLOR;
        nccl_check(ncclCommSplit(world_, color, context_.rank(), &comm, nullptr), "ncclCommSplit");
        groups_[size] = comm;
    }
}

void NcclCommunicator::start_collective(NetworkOp op, std::size_t bytes, int ranks) {
    ncclComm_t comm = groups_.at(ranks);
    if (!comm) return;
    const cudaStream_t stream = device_.stream();
    const std::size_t count = bytes / sizeof(float);
    const std::size_t share = count / static_cast<std::size_t>(ranks);
    if (op == NetworkOp::allreduce)
        nccl_check(ncclAllReduce(send_, receive_, count, ncclFloat, ncclSum, comm, stream), "ncclAllReduce");
    else if (op == NetworkOp::allgather)
        nccl_check(ncclAllGather(send_, receive_, share, ncclFloat, comm, stream), "ncclAllGather");
    else if (op == NetworkOp::reducescatter)
        nccl_check(ncclReduceScatter(send_, receive_, share, ncclFloat, ncclSum, comm, stream), "ncclReduceScatter");
    else if (op == NetworkOp::broadcast)
        nccl_check(ncclBroadcast(send_, receive_, count, ncclFloat, 0, comm, stream), "ncclBroadcast");
    else if (op == NetworkOp::alltoall) {
        // NCCL has no all-to-all primitive: nccl-tests builds it from grouped send/recv, as here.
        nccl_check(ncclGroupStart(), "ncclGroupStart");
        for (int peer = 0; peer < ranks; ++peer) {
            auto* out = static_cast<char*>(send_) + peer * share * sizeof(float);
            auto* in = static_cast<char*>(receive_) + peer * share * sizeof(float);
            nccl_check(ncclSend(out, share, ncclFloat, peer, comm, stream), "ncclSend");
            nccl_check(ncclRecv(in, share, ncclFloat, peer, comm, stream), "ncclRecv");
        }
        nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    } else
        throw std::invalid_argument("not a collective: '" + std::string(to_string(op)) + "'");
}

void NcclCommunicator::start_send(int peer, std::size_t bytes) {
    nccl_check(ncclSend(send_, std::max<std::size_t>(1, bytes / sizeof(float)), ncclFloat, peer, world_, device_.stream()),
               "ncclSend");
}

void NcclCommunicator::start_recv(int peer, std::size_t bytes) {
    nccl_check(ncclRecv(receive_, std::max<std::size_t>(1, bytes / sizeof(float)), ncclFloat, peer, world_, device_.stream()),
               "ncclRecv");
}

void NcclCommunicator::start_sendrecv(int to, int from, std::size_t bytes) {
    // Grouped, so that NCCL runs both at once (nccl-tests' sendrecv_perf).
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    start_send(to, bytes);
    start_recv(from, bytes);
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
}

void NcclCommunicator::synchronize() { device_.synchronize(); }

std::unique_ptr<DeviceGradients> NcclCommunicator::device_gradients(const std::vector<std::size_t>& bucket_elements) {
    return std::make_unique<NcclGradients>(world_, device_.ordinal(), bucket_elements);
}

std::unique_ptr<LayoutChannel> NcclCommunicator::layout_channel(const ParallelLayout& layout, int rank) {
    return std::make_unique<NcclLayoutChannel>(world_, device_.ordinal(), layout, rank);
}

}  // namespace dtsim::runtime
