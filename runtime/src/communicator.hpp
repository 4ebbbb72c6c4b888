#pragma once
// A communicator runs the network side of the microbenchmarks (and, with device_gradients, of measured runs on GPUs).
// Operations are *started* in order; synchronize() waits until all started ones are complete. For MPI
// each call completes before it returns; for NCCL it is enqueued on the rank's CUDA stream.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dtsim/network_ops.hpp"

#include "device_gradients.hpp"
#include "dtsim/parallel_layout.hpp"
#include "layout_channel.hpp"

namespace dtsim::runtime {

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual std::string name() const = 0;
    virtual std::string version() const = 0;

    /// Collective: allocates buffers of `bytes` each and makes a sub-communicator for each group size
    /// (the first `ranks` world ranks). Every rank must call it with the same arguments.
    virtual void prepare(std::size_t bytes, const std::vector<int>& group_sizes) = 0;

    /// One collective among the first `ranks` ranks; other ranks return at once. `bytes` has nccl-tests'
    /// meaning: the buffer for allreduce and broadcast, the whole gathered array for allgather, the whole
    /// input for reducescatter, each rank's total send for alltoall.
    virtual void start_collective(NetworkOp op, std::size_t bytes, int ranks) = 0;

    /// One message of `bytes` to (from) a peer.
    virtual void start_send(int peer, std::size_t bytes) = 0;
    virtual void start_recv(int peer, std::size_t bytes) = 0;
    /// Sends `bytes` to one peer while receiving `bytes` from another (a ring step).
    virtual void start_sendrecv(int to, int from, std::size_t bytes) = 0;

    virtual void synchronize() = 0;

    /// A measured run's buckets (`bucket_elements` fp32 each) in device memory, all-reduced by this
    /// communicator's library over every rank; nullptr where the measured run all-reduces host buffers.
    virtual std::unique_ptr<DeviceGradients> device_gradients(const std::vector<std::size_t>& /*bucket_elements*/) {
        return nullptr;
    }
    /// A channel of a measured LLM-layout run whose collectives this communicator's library runs on the
    /// device (collective over every rank); nullptr where the run uses host buffers and MPI.
    virtual std::unique_ptr<LayoutChannel> layout_channel(const ParallelLayout& /*layout*/, int /*rank*/) { return nullptr; }
};

}  // namespace dtsim::runtime
