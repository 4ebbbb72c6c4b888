#pragma once
// Ring all-reduce (sum) of float buffers over MPI point-to-point, as the simulator's ring: a
// reduce-scatter of W-1 steps, then an all-gather of W-1 steps, each step sending one W-th of the buffer
// to the right neighbour while receiving one from the left.
#include <mpi.h>

#include <vector>

namespace dtsim::runtime {

void ring_allreduce(std::vector<float>& values, MPI_Comm comm, int tag);

}  // namespace dtsim::runtime
