#pragma once
// The `mpi` communicator: the MPI library's own collectives and point-to-point on host buffers.
#include <map>
#include <memory>

#include "communicator.hpp"
#include "mpi_context.hpp"

namespace dtsim::runtime {

class MpiCommunicator : public Communicator {
public:
    explicit MpiCommunicator(const MpiContext& context);
    ~MpiCommunicator() override;

    std::string name() const override { return "mpi"; }
    std::string version() const override { return context_.library_version(); }
    void prepare(std::size_t bytes, const std::vector<int>& group_sizes) override;
    void start_collective(NetworkOp op, std::size_t bytes, int ranks) override;
    void start_send(int peer, std::size_t bytes) override;
    void start_recv(int peer, std::size_t bytes) override;
    void start_sendrecv(int to, int from, std::size_t bytes) override;
    void synchronize() override {}

private:
    const MpiContext& context_;
    std::vector<float> send_;
    std::vector<float> receive_;
    std::map<int, MPI_Comm> groups_;  // group size -> communicator (MPI_COMM_NULL outside the group)
};

}  // namespace dtsim::runtime
