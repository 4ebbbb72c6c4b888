#include "dtsim/nccl_call_costs.hpp"

#include <algorithm>

#include "dtsim/nccl_tree_pipeline.hpp"

namespace dtsim {

namespace {

double payload_fraction(const NcclCall& call, NcclProtocol protocol, double fraction, double link) {
    return nccl_payload_rate(call, protocol, fraction, link) / link;
}

}  // namespace

NcclCallCosts nccl_call_costs(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice, int channels,
                              std::optional<double> chunk) {
    const auto& costs = parameters.costs(choice.protocol);
    const double bytes = call.bytes, n = call.ranks, k = call.ranks_per_node;
    const double intra = call.intra_bytes_per_second, inter = call.inter_bytes_per_second;
    const bool across = call.nodes > 1;
    const double link = across ? std::min(intra, inter) : intra;
    const double slowest = across ? std::max(1 / intra, 1 / inter) : 1 / intra;  // seconds per byte on the busier link
    NcclCallCosts result;
    result.latency_s = nccl_latency_s(parameters, call, choice) * parameters.latency_scale_of(choice.protocol);
    switch (choice.algorithm) {
        case NcclAlgorithm::tree: {
            const double fraction = result.payload_fraction = payload_fraction(call, choice.protocol, costs.tree_payload_fraction, link);
            // A node's chain sends its half up and down in both trees; so does an interior node's NIC.
            result.bottleneck_s = 2 * bytes / fraction * slowest;
            // A channel's first chunk crosses each hop beside its other tree and the channels entering the node at
            // the same GPU (those on its rail); the channels on other rails start at other GPUs, on other links.
            const double sharing = 2.0 * ((channels + call.rails - 1) / call.rails);
            result.fill_s = nccl_tree_fill_s(parameters, call, choice.protocol, 2 * channels, chunk, fraction * intra / sharing,
                                             fraction * inter / call.rails / sharing);
            break;
        }
        case NcclAlgorithm::nvls:
            result.bottleneck_s = bytes / call.nvls_efficiency / intra;
            result.fill_s = nccl_nvls_fill_s(parameters, call, chunk);
            break;
        case NcclAlgorithm::nvls_tree: {
            result.bottleneck_s = std::max(bytes / call.nvls_efficiency / intra, nccl_nvls_tree_net_bytes(call) / inter);
            result.fill_s = nccl_nvls_tree_fill_s(parameters, call, chunk);
            break;
        }
        case NcclAlgorithm::collnet:
            result.bottleneck_s = std::max(2 * (k - 1) / k * bytes / intra, bytes / call.collnet_efficiency / inter);
            break;
        case NcclAlgorithm::pat:
            result.payload_fraction = parameters.pat_payload_fraction;
            result.bottleneck_s = (n - 1) / n * bytes / result.payload_fraction * slowest;
            break;
        case NcclAlgorithm::ring:
        case NcclAlgorithm::automatic: {
            const double steps_share = (call.op == NetworkOp::allreduce ? 2 : 1) * (n - 1) / n;
            const double fraction = result.payload_fraction = payload_fraction(call, choice.protocol, costs.ring_payload_fraction, link);
            result.bottleneck_s = steps_share * bytes / fraction * slowest;
            // Chunks pipeline through the node's chain and the hop between nodes: the collective lasts the
            // slower phase plus one chunk's pass through the faster one (the node's k - 1 NVLink hops).
            if (across && k > 1) {
                const double pass = std::min(chunk.value_or(costs.step_payload_bytes), bytes / channels / n);
                result.fill_s = (k - 1) * pass / fraction / intra;
            }
            break;
        }
    }
    // Where NCCL's per-channel cap binds, the flows carry proportionally more bytes to take its time.
    if (const double capped = nccl_capped_s(parameters, call, choice); capped > result.bottleneck_s && result.bottleneck_s > 0) {
        result.bandwidth_scale = capped / result.bottleneck_s;
        result.bottleneck_s = capped;
    }
    const double calibrated = parameters.bandwidth_scale_of(choice.protocol);
    result.bandwidth_scale *= calibrated;
    result.bottleneck_s *= calibrated;
    result.fill_s *= calibrated;
    return result;
}

}  // namespace dtsim
