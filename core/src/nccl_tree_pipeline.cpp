#include "dtsim/nccl_tree_pipeline.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace dtsim {

namespace {

int log2_of(int nodes) { return std::bit_width(static_cast<unsigned>(nodes)) - 1; }

}  // namespace

double nccl_tree_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, NcclProtocol protocol, int pipelines,
                             std::optional<double> forced) {
    double chunk = parameters.costs(protocol).step_payload_bytes;
    if (forced) {
        chunk = *forced;
    } else if (protocol == NcclProtocol::ll128) {
        // NCCL counts whole chunks per tree (an integer division) against 1 + log2 N + ppn/10 steps of the tree.
        const double per_node = static_cast<double>(call.ranks) / call.nodes;
        const double steps = 1 + log2_of(call.nodes) + 0.1 * per_node;
        auto chunks = [&] { return std::floor(call.bytes / (pipelines * chunk)); };
        while (chunks() < steps * 64 / per_node && chunk > 131072) chunk = std::floor(chunk / 2);
        while (chunks() < steps * 16 / per_node && chunk > 32768) chunk = std::floor(chunk / 2);
    }
    return std::min(chunk, call.bytes / pipelines);
}

double nccl_forward_bytes(NcclProtocol protocol) {
    switch (protocol) {
        case NcclProtocol::ll: return 512.0 * 8;
        case NcclProtocol::ll128: return 20.0 * 32 * 8 * 8 * 15 / 16;
        case NcclProtocol::simple:
        case NcclProtocol::automatic: break;
    }
    return 0;
}

double nccl_tree_fill_s(const NcclParameters& parameters, const NcclCall& call, NcclProtocol protocol, int pipelines,
                        std::optional<double> forced_chunk, double intra_rate, double net_rate) {
    const double chunk = nccl_tree_chunk_bytes(parameters, call, protocol, pipelines, forced_chunk);
    const double forward = nccl_forward_bytes(protocol);
    const double held = forward > 0 ? std::min(chunk, forward) : chunk;
    const int intra_hops = 2 * (call.ranks_per_node - 1), net_hops = 2 * log2_of(call.nodes);
    double passage = 0, slowest = 0;
    if (intra_hops > 0) {
        passage += intra_hops * held / intra_rate;
        slowest = chunk / intra_rate;
    }
    if (net_hops > 0) {
        passage += net_hops * chunk / net_rate;
        slowest = std::max(slowest, chunk / net_rate);
    }
    return std::max(0.0, passage - slowest);
}

double nccl_nvls_tree_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced) {
    const double operations = static_cast<double>(parameters.nvls_channels) * call.rails;
    double chunk = forced.value_or(call.nodes >= 4 ? std::min(parameters.nvls_chunk_bytes, parameters.nvls_tree_chunk_bytes_4_nodes)
                                                   : parameters.nvls_chunk_bytes);
    if (!forced) {
        // NCCL's thresholds: at most 256, 128, 64 and 32 KiB below 32, 16, 4 and 1 chunks per operation.
        for (const auto& [chunks, largest] : {std::pair{32.0, 262144.0}, {16.0, 131072.0}, {4.0, 65536.0}, {1.0, 32768.0}})
            if (call.bytes < chunks * operations * chunk && chunk > largest) chunk = largest;
    }
    return std::min(chunk, call.bytes / operations);
}

double nccl_nvls_tree_fill_s(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced_chunk) {
    const double chunk = nccl_nvls_tree_chunk_bytes(parameters, call, forced_chunk);
    const double operations = static_cast<double>(parameters.nvls_channels) * call.rails;
    const double switch_rate = call.nvls_efficiency * call.intra_bytes_per_second / operations;
    const double net_rate = call.inter_bytes_per_second / call.rails / parameters.nvls_channels;
    const double passage = 2 * chunk / switch_rate + 2 * log2_of(call.nodes) * chunk / net_rate;
    return std::max(0.0, passage - chunk / std::min(switch_rate, net_rate));
}

double nccl_nvls_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced) {
    const double operations = static_cast<double>(parameters.nvls_channels) * call.ranks_per_node;
    double chunk = forced.value_or(std::min(parameters.nvls_chunk_bytes, parameters.costs(NcclProtocol::simple).step_payload_bytes));
    if (!forced) {
        for (const auto& [chunks, largest] : {std::pair{64.0, 65536.0}, {8.0, 32768.0}, {2.0, 16384.0}})
            if (call.bytes < chunks * operations * chunk && chunk > largest) chunk = largest;
    }
    return std::min(chunk, call.bytes / operations);
}

double nccl_nvls_fill_s(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced_chunk) {
    const double operations = static_cast<double>(parameters.nvls_channels) * call.ranks_per_node;
    const double switch_rate = call.nvls_efficiency * call.intra_bytes_per_second / operations;
    // Two passes (reduce, multicast), one of which is the steady state's.
    return nccl_nvls_chunk_bytes(parameters, call, forced_chunk) / switch_rate;
}

}  // namespace dtsim
