#include "mpi_layout_channel.hpp"

#include "../layout_groups.hpp"
#include "../mpi_waiting.hpp"
#include "ring_allreduce.hpp"

namespace dtsim::runtime {

MpiLayoutChannel::MpiLayoutChannel(MPI_Comm workers, const ParallelLayout& layout, int rank) {
    for (LayoutGroup group : kLayoutGroups) {
        const auto members = layout_group(layout, rank, group);
        MPI_Comm_split(workers, members.first, members.position, &comms_[static_cast<size_t>(group)]);
    }
}

MpiLayoutChannel::~MpiLayoutChannel() {
    for (MPI_Comm& comm : comms_) MPI_Comm_free(&comm);
}

int MpiLayoutChannel::size(LayoutGroup group) const {
    int size = 1;
    MPI_Comm_size(comms_[static_cast<size_t>(group)], &size);
    return size;
}

void MpiLayoutChannel::collective(LayoutGroup group, GroupOp op, std::size_t bytes) {
    MPI_Comm comm = comms_[static_cast<size_t>(group)];
    const int members = size(group);
    const std::size_t elements = (bytes + sizeof(float) - 1) / sizeof(float);
    if (buffer_.size() < elements) buffer_.resize(elements);
    switch (op) {
        case GroupOp::allreduce: return ring_allreduce_sum(buffer_.data(), elements, comm, 0);
        case GroupOp::reduce_scatter: return ring_reduce_scatter_sum(buffer_.data(), elements, comm, 0);
        case GroupOp::allgather:
            return ring_allgather(reinterpret_cast<unsigned char*>(buffer_.data()), bytes / static_cast<std::size_t>(members), comm, 0);
        case GroupOp::alltoall: break;
    }
    // Every peer's share at once; the share to oneself stays.
    int me = 0;
    MPI_Comm_rank(comm, &me);
    const int share = static_cast<int>(bytes / static_cast<std::size_t>(members));
    std::vector<unsigned char> incoming(bytes);
    const auto* outgoing = reinterpret_cast<const unsigned char*>(buffer_.data());
    std::vector<MPI_Request> requests;
    for (int peer = 0; peer < members; ++peer) {
        if (peer == me) continue;
        const auto offset = static_cast<std::size_t>(peer) * static_cast<std::size_t>(share);
        requests.emplace_back();
        MPI_Irecv(incoming.data() + offset, share, MPI_BYTE, peer, 0, comm, &requests.back());
        requests.emplace_back();
        MPI_Isend(outgoing + offset, share, MPI_BYTE, peer, 0, comm, &requests.back());
    }
    wait_all(requests);
}

}  // namespace dtsim::runtime
