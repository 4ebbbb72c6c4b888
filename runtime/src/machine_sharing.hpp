#pragma once
// Which ranks share a physical machine, and how many cores they share. Ranks on one machine see the same
// kernel boot id, whatever host names their namespaces or containers give them (runtime/testbed's "hosts"
// are one machine). A machine's cores are the union of its ranks' CPU affinity masks. Where ranks
// outnumber cores, they time-share them: the calibration then times codec kernels one rank at a time, and
// the profile tells the simulator to share the cores (compute.shared_cores).
#include <vector>

#include "mpi_context.hpp"

namespace dtsim::runtime {

struct Machine {
    int cores = 0;
    std::vector<int> ranks;
};

/// Collective over all ranks: every rank gets every machine, ordered by lowest rank.
std::vector<Machine> gather_machines(const MpiContext& context);

/// Whether some machine has more ranks than cores.
bool oversubscribed(const std::vector<Machine>& machines);

}  // namespace dtsim::runtime
