#pragma once
// NCCL calls the model tests price: an all-reduce over whole nodes of 8 GPUs with a NIC each.
#include "dtsim/nccl_model.hpp"

namespace dtsim::test {

/// An all-reduce of `bytes` over `nodes` nodes of 8 GPUs on `intra` bytes/s links (whose switch reduces at `nvls` of
/// them; 0: not at all), each node's 8 NICs at `nic` bytes/s.
inline NcclCall whole_nodes_allreduce(int nodes, double bytes, double intra, double nic, double nvls) {
    return NcclCall{.op = NetworkOp::allreduce,
                    .ranks = 8 * nodes,
                    .nodes = nodes,
                    .ranks_per_node = 8,
                    .rails = 8,
                    .bytes = bytes,
                    .intra_hop = NcclHop::nvlink,
                    .intra_bytes_per_second = intra,
                    .inter_bytes_per_second = 8 * nic,
                    .nvls_efficiency = nvls,
                    .caps = {}};
}

}  // namespace dtsim::test
