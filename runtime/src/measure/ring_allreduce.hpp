#pragma once
// Ring all-reduce (sum) and all-gather over MPI point-to-point, as the simulator's ring: a reduce-scatter
// of W-1 steps, then an all-gather of W-1 steps, each step sending one W-th of the buffer to the right
// neighbour while receiving one from the left; the hierarchical all-reduce built of such rings; and the
// strategy's choice among these and the tree, halving-doubling and direct ones (allreduce_algorithms.hpp).
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dtsim/scenario.hpp"

namespace dtsim::runtime {

/// The workers' communicators an all-reduce runs over, and its algorithm: all of them, or (hierarchical)
/// the node's ranks and the ranks of the same local index across nodes.
struct AllReduceGroups {
    MPI_Comm all = MPI_COMM_NULL;
    AllReduceAlgorithm algorithm = AllReduceAlgorithm::ring;
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm across = MPI_COMM_NULL;
};

/// The sum over the group by the groups' algorithm, as the simulator's: ring; hierarchical (ring
/// reduce-scatter in the node, ring all-reduce of each complete chunk across nodes, ring all-gather in
/// the node); tree, halving-doubling or direct.
void allreduce_sum(std::vector<float>& values, const AllReduceGroups& groups, int tag);
/// The ring sum over `comm` of data[0, n), in place. Calibration times this very ring (--backend mpi), so
/// that a profile's all-reduce is the measured runs' own.
void ring_allreduce_sum(float* data, std::size_t n, MPI_Comm comm, int tag);
/// The ring's first half alone: W-1 steps after which each rank holds one complete W-th of the sum.
void ring_reduce_scatter_sum(float* data, std::size_t n, MPI_Comm comm, int tag);
/// Every rank's block of `block_bytes` ends up everywhere: `blocks` holds W blocks, this rank's at its
/// position; W-1 steps each pass one block to the right neighbour, as the simulator's ring pass.
void ring_allgather(unsigned char* blocks, std::size_t block_bytes, MPI_Comm comm, int tag);
void ring_allgather(std::vector<unsigned char>& blocks, std::size_t block_bytes, MPI_Comm comm, int tag);
/// fp16 values (as bits): each step adds in fp32 and rounds the partial sum back to fp16, as NCCL's
/// half-precision sums do; the wire carries two bytes per element.
void allreduce_sum_half(std::vector<std::uint16_t>& values, const AllReduceGroups& groups, int tag);
/// fp32 values sent as int8 with a scale per message (int8_quantization.hpp): the reduce-scatter
/// quantizes each partial sum it passes on and adds in fp32; the all-gather quantizes each complete chunk
/// once and passes the same message around, so that every rank ends with the same values.
void ring_allreduce_int8(std::vector<float>& values, MPI_Comm comm, int tag);

}  // namespace dtsim::runtime
