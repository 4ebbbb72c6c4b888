#pragma once
// Splitting a sweep over MPI ranks when dtsim itself runs under mpirun: each rank simulates its share
// of the points and rank 0 gathers the results.
#include <string>
#include <vector>

namespace dtsim::cli {

class MpiWorld {
public:
    /// Initialises MPI only when this process was launched by an MPI launcher.
    MpiWorld();
    ~MpiWorld();
    MpiWorld(const MpiWorld&) = delete;
    MpiWorld& operator=(const MpiWorld&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    /// Every rank's strings, concatenated in rank order, on rank 0; empty elsewhere.
    std::vector<std::string> gather(const std::vector<std::string>& mine) const;

private:
    bool initialised_ = false;
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace dtsim::cli
