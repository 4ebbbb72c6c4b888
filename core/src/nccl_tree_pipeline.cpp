#include "dtsim/nccl_tree_pipeline.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace dtsim {

namespace {

int log2_of(int nodes) { return std::bit_width(static_cast<unsigned>(nodes)) - 1; }

struct ChunkCut {
    double chunks;   // below this many chunks per operation in flight...
    double largest;  // ...the chunk is at most this
};

// NCCL's NVLS and NVLSTree chunk (src/enqueue.cc, calcCollChunking): `chunk`, cut by each of `cuts` in turn where
// the call holds few chunks per operation in flight, unless `forced`; at most one operation's bytes.
template <size_t N>
double nvls_chunk(const NcclCall& call, double operations, double chunk, std::optional<double> forced, const ChunkCut (&cuts)[N]) {
    if (forced) chunk = *forced;
    else
        for (const auto& cut : cuts)
            if (call.bytes < cut.chunks * operations * chunk && chunk > cut.largest) chunk = cut.largest;
    return std::min(chunk, call.bytes / operations);
}

// NVLS's operations in flight: every compute channel runs every head's chunk at once.
double nvls_operations(const NcclParameters& parameters, int heads) { return static_cast<double>(parameters.nvls_channels) * heads; }

// A chunk's rate through the switch, which every operation in flight shares (each reads from and writes to every GPU).
double nvls_switch_rate(const NcclCall& call, double operations) { return call.nvls_efficiency * call.intra_bytes_per_second / operations; }

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
    static constexpr ChunkCut kCuts[] = {{32, 262144}, {16, 131072}, {4, 65536}, {1, 32768}};
    const double largest = call.nodes >= 4 ? std::min(parameters.nvls_chunk_bytes, parameters.nvls_tree_chunk_bytes_4_nodes)
                                           : parameters.nvls_chunk_bytes;
    return nvls_chunk(call, nvls_operations(parameters, call.rails), largest, forced, kCuts);
}

double nccl_nvls_tree_fill_s(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced_chunk) {
    const double chunk = nccl_nvls_tree_chunk_bytes(parameters, call, forced_chunk);
    const double switch_rate = nvls_switch_rate(call, nvls_operations(parameters, call.rails));
    const double net_rate = call.inter_bytes_per_second / call.rails / parameters.nvls_channels;
    const double passage = 2 * chunk / switch_rate + 2 * log2_of(call.nodes) * chunk / net_rate;
    return std::max(0.0, passage - chunk / std::min(switch_rate, net_rate));
}

double nccl_nvls_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced) {
    static constexpr ChunkCut kCuts[] = {{64, 65536}, {8, 32768}, {2, 16384}};
    const double largest = std::min(parameters.nvls_chunk_bytes, parameters.costs(NcclProtocol::simple).step_payload_bytes);
    return nvls_chunk(call, nvls_operations(parameters, call.ranks_per_node), largest, forced, kCuts);
}

double nccl_nvls_fill_s(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced_chunk) {
    // Two passes (reduce, multicast), one of which is the steady state's.
    return nccl_nvls_chunk_bytes(parameters, call, forced_chunk) /
           nvls_switch_rate(call, nvls_operations(parameters, call.ranks_per_node));
}

}  // namespace dtsim
