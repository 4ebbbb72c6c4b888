#pragma once
// Open MPI picks collective algorithms by size and rank count. A calibration pins each collective to one
// algorithm the simulator also implements, so that `dtsim fit --validate` compares like with like
// (shared reference nccl-and-hardware.md §4.1: forcing coll/tuned via MCA parameters). Settings the
// user already made in the environment win. Must run before MPI_Init.
#include <map>
#include <string>

namespace dtsim::runtime {

/// Sets the OMPI_MCA_coll_tuned_* variables not already set; returns every pinned parameter and value.
std::map<std::string, std::string> pin_mpi_collective_algorithms();

}  // namespace dtsim::runtime
