#pragma once
// The MPI control plane every backend shares: rank and size, node membership from the
// shared-memory split, barriers, and combining per-rank measurements.
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

namespace dtsim::runtime {

/// DTSIM_RANKS_PER_NODE=K from the environment, if set: every K consecutive ranks count as one node (tests on
/// one machine). Throws InputError naming the variable when it is not a whole number of 1 or more.
std::optional<int> emulated_ranks_per_node();

class MpiContext {
public:
    /// `thread_level`: what the program needs (MPI_THREAD_FUNNELED, or MPI_THREAD_SERIALIZED when a
    /// communication thread makes the MPI calls); fails when the library cannot provide it.
    MpiContext(int& argc, char**& argv, int thread_level = MPI_THREAD_FUNNELED);
    ~MpiContext();
    MpiContext(const MpiContext&) = delete;
    MpiContext& operator=(const MpiContext&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    MPI_Comm world() const { return MPI_COMM_WORLD; }
    /// Dense node index of every rank (ranks sharing memory are on one node; with DTSIM_RANKS_PER_NODE=K in the
    /// environment, every K consecutive ranks, for tests on one machine), the same on all ranks.
    const std::vector<int>& node_of_rank() const { return node_of_rank_; }
    int nodes() const;
    int local_rank() const { return local_rank_; }
    /// Every rank's host name, in rank order.
    const std::vector<std::string>& host_names() const { return host_names_; }

    void barrier() const;
    double max_over_ranks(double value) const;
    double mean_over_ranks(double value) const;
    /// Element-wise maximum over ranks (every rank passes the same length).
    std::vector<double> max_over_ranks(const std::vector<double>& values) const;
    /// Element-wise mean over ranks (every rank passes the same length).
    std::vector<double> mean_over_ranks(const std::vector<double>& values) const;
    /// Rank `root`'s values on every rank.
    std::vector<double> broadcast(std::vector<double> values, int root) const;
    std::string broadcast(std::string text, int root) const;
    std::string library_version() const;

private:
    void allreduce(const double* in, double* out, int count, MPI_Op op) const;
    void bcast(void* buffer, int count, MPI_Datatype type, int root) const;
    int rank_ = 0;
    int size_ = 1;
    int local_rank_ = 0;
    std::vector<int> node_of_rank_;
    std::vector<std::string> host_names_;
};

}  // namespace dtsim::runtime
