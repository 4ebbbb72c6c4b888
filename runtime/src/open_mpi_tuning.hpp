#pragma once
// Open MPI settings the runtime makes before MPI_Init, as OMPI_MCA_* environment defaults: settings the
// user already made in the environment win. Each function returns every parameter it covers with the
// value in effect, for environment.json.
#include <map>
#include <string>

namespace dtsim::runtime {

/// Open MPI picks collective algorithms by size and rank count. A calibration pins each collective to one
/// algorithm the simulator also implements, so that `dtsim fit --validate` compares like with like
/// (docs/hardware-sources.md §9: forcing coll/tuned via MCA parameters).
std::map<std::string, std::string> pin_mpi_collective_algorithms();

/// Open MPI's TCP transport sends every message eagerly, without its rendezvous handshake. When two ranks send each
/// other a large message at once, one side's handshake reply can queue behind its own data on the shared connection;
/// the two directions then take turns and each runs at half the rate. It can hit a random half of the two-way exchanges
/// above 64 KiB (docs/calibration.md, "MPI transport"). NCCL keeps one connection per direction and has no such race;
/// InfiniBand and other transports are not affected by these parameters.
std::map<std::string, std::string> set_mpi_tcp_eager_sends();

}  // namespace dtsim::runtime
