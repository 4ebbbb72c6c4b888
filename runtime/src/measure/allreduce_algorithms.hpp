#pragma once
// The simulator's other all-reduce algorithms over MPI point-to-point (sim/src/collectives.cpp), for
// measured runs: NCCL's double binary tree without its chunk pipelining, recursive halving-doubling
// (Rabenseifner's, with the ranks beyond a power of two folded in), and direct (every rank exchanges
// one share with every other, twice). Each sums data[0, n) over `comm` in place; `add` adds a received
// run of elements into the rank's own.
#include <mpi.h>

#include <cstddef>

namespace dtsim::runtime {

template <typename Element>
using AddInto = void (*)(Element* target, const Element* incoming, std::size_t count);

/// Half the data goes through each of the two trees, both at once: children's halves are summed on the
/// way up, the root's total comes back down (tags 2·tag and 2·tag + 1).
template <typename Element>
void tree_allreduce(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag);

/// log2(P) exchanges that halve the range each rank sums, then log2(P) that double it back.
template <typename Element>
void halving_doubling_allreduce(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag);

/// A reduce-scatter and an all-gather in which every rank sends one W-th to every other at once.
template <typename Element>
void direct_allreduce(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag);

}  // namespace dtsim::runtime
