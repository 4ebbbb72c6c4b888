#include "dtsim/nccl_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dtsim {

namespace {

constexpr double kUs = 1e-6;

int log2_floor(int n) {
    int log = 0;
    while ((2 << log) <= n) ++log;
    return log;
}

bool applies(NcclAlgorithm algorithm, NcclProtocol protocol, const NcclCall& call) {
    const bool allreduce = call.op == NetworkOp::allreduce;
    switch (algorithm) {
        case NcclAlgorithm::ring: return true;
        case NcclAlgorithm::tree: return allreduce;
        // NCCL's PAT supports one GPU per node (tuning.cc, ncclPatEnable).
        case NcclAlgorithm::pat:
            return !allreduce && protocol == NcclProtocol::simple && call.nodes > 1 && call.ranks == call.nodes;
        case NcclAlgorithm::nvls: return allreduce && protocol == NcclProtocol::simple && call.nodes == 1 && call.ranks > 1 && call.nvls_efficiency > 0;
        // NCCL needs two NVLS heads at least (tuning.cc: "NVLS/NVLStree needs at least 2 channels").
        case NcclAlgorithm::nvls_tree:
            return allreduce && protocol == NcclProtocol::simple && call.nodes > 1 && call.ranks_per_node > 1 && call.rails > 1 &&
                   call.nvls_efficiency > 0;
        case NcclAlgorithm::collnet: return allreduce && protocol == NcclProtocol::simple && call.nodes > 1 && call.collnet_efficiency > 0;
        case NcclAlgorithm::automatic: break;
    }
    return false;
}

}  // namespace

size_t nccl_protocol_index(NcclProtocol protocol) {
    switch (protocol) {
        case NcclProtocol::ll: return 0;
        case NcclProtocol::ll128: return 1;
        case NcclProtocol::simple:
        case NcclProtocol::automatic: break;
    }
    return 2;
}

const NcclProtocolCosts& NcclParameters::costs(NcclProtocol protocol) const { return protocols[nccl_protocol_index(protocol)]; }

double NcclParameters::latency_scale_of(NcclProtocol protocol) const { return latency_scale[nccl_protocol_index(protocol)]; }

double NcclParameters::bandwidth_scale_of(NcclProtocol protocol) const { return bandwidth_scale[nccl_protocol_index(protocol)]; }

NcclParameters nccl_defaults() {
    NcclParameters parameters;
    // baseLatencies and hwLatencies (NVLINK, PCI, NET) of ncclTunerConstantsDefaults, in µs.
    // LL: 16-byte lines of 8 payload and 8 flag bytes; its buffer is 8 lines x 512 threads x 8 steps.
    parameters.protocols[0] = {6.6 * kUs, 6.8 * kUs, {0.6 * kUs, 1.0 * kUs, 2.7 * kUs}, {0.6 * kUs, 1.0 * kUs, 5.0 * kUs},
                               0.5, 1 / 3.8, 8.0 * 512 * 16 / 2};
    // LL128: 128-byte lines of 120 payload bytes (the model's 0.92); a step is 120 x 640 threads x 8 B of lines, of
    // which the 15 data words of each 16-word line are payload (enqueue.cc: chunkSize / LINEELEMS * DATAELEMS).
    parameters.protocols[1] = {14.0 * kUs, 14.0 * kUs, {1.9 * kUs, 2.5 * kUs, 4.0 * kUs}, {1.25 * kUs, 1.9 * kUs, 8.5 * kUs},
                               0.92, 120.0 / 128, 120.0 * 640 * 8 * 15 / 16};
    // Simple: 4 MiB per channel and peer over 8 steps.
    parameters.protocols[2] = {8.4 * kUs, 8.4 * kUs, {3.4 * kUs, 5.7 * kUs, 14.0 * kUs}, {4.0 * kUs, 4.0 * kUs, 14.0 * kUs},
                               1.0, 0.92, 4.0 * 1024 * 1024 / 8};
    parameters.ll_max_busbw_across = {39.0e9, 20.4e9};  // llMaxBws Intel-N2, Intel-N4
    parameters.net_overhead_s = 1.0 * kUs;  // Intel hosts; AMD's is 2 µs
    parameters.nvls_latency_s = 25 * kUs;
    parameters.nvls_tree_net_latency_s = 20.9 * kUs;
    parameters.nvls_channels = 16;
    parameters.nvls_chunk_bytes = 128 * 1024;
    parameters.nvls_tree_chunk_bytes_4_nodes = 64 * 1024;
    parameters.collnet_latency_s = 30 * kUs;
    parameters.collnet_hop_latency_s = 2.8 * kUs;
    parameters.pat_base_latency_s = 8.0 * kUs;
    parameters.pat_net_latency_s = 14.0 * kUs;
    parameters.pat_rank_latency_s = 2.8 * kUs;
    parameters.pat_payload_fraction = 0.75;
    return parameters;
}

double nccl_latency_s(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice) {
    const auto& costs = parameters.costs(choice.protocol);
    const bool allreduce = call.op == NetworkOp::allreduce;
    const bool simple = choice.protocol == NcclProtocol::simple;
    const auto intra = static_cast<size_t>(call.intra_hop), net = static_cast<size_t>(NcclHop::net);
    const int per_node = call.ranks_per_node;
    switch (choice.algorithm) {
        case NcclAlgorithm::tree:
            return costs.tree_base_latency_s +
                   2 * ((per_node - 1) * costs.tree_hop_latency_s[intra] + log2_floor(call.nodes) * costs.tree_hop_latency_s[net]);
        case NcclAlgorithm::nvls: return parameters.nvls_latency_s;
        // No base latency (baseLatencies[NVLSTree] = 0); the network's latency (ncclNetProperties' latency) is 0 for
        // InfiniBand verbs and sockets.
        case NcclAlgorithm::nvls_tree: return parameters.nvls_latency_s + 2 * log2_floor(call.nodes) * parameters.nvls_tree_net_latency_s;
        case NcclAlgorithm::collnet: return 2 * (per_node - 1) * parameters.collnet_hop_latency_s + parameters.collnet_latency_s;
        case NcclAlgorithm::pat:
            return parameters.pat_base_latency_s + log2_floor(call.nodes) * parameters.pat_net_latency_s / 3.5 +
                   call.ranks * parameters.pat_rank_latency_s;
        case NcclAlgorithm::ring:
        case NcclAlgorithm::automatic: break;
    }
    const int steps = allreduce ? 2 * (call.ranks - 1) : call.ranks - 1;
    const int inter_steps = call.nodes == 1 ? 0 : allreduce ? 2 * (call.nodes - 1) : call.nodes - 1;
    double intra_s = costs.ring_hop_latency_s[intra];
    if (call.nodes > 1) intra_s = std::max(intra_s, parameters.net_overhead_s * (simple ? 3 : 1));
    // With one rank per node every step crosses the network, and NCCL takes the tree's network hop.
    const double inter_s = per_node == 1 ? costs.tree_hop_latency_s[net] : costs.ring_hop_latency_s[net];
    return costs.ring_base_latency_s + (steps - inter_steps) * intra_s + inter_steps * inter_s;
}

double nccl_payload_rate(const NcclCall& call, NcclProtocol protocol, double fraction, double link) {
    const double rate = fraction * link;
    return protocol == NcclProtocol::ll && call.ll_max_busbw > 0 ? std::min(rate, call.ll_max_busbw) : rate;
}

double nccl_nvls_tree_net_bytes(const NcclCall& call) { return (call.nodes <= 2 ? 1 : 2) * call.bytes; }

double nccl_capped_s(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice) {
    const double n = call.ranks;
    const auto& caps = call.caps;
    double cap = 0, bus_bytes = 2 * (n - 1) / n * call.bytes;
    switch (choice.algorithm) {
        case NcclAlgorithm::tree:
            bus_bytes = 2 * call.bytes;
            cap = caps.tree;
            if (choice.protocol != NcclProtocol::simple) cap *= parameters.costs(choice.protocol).tree_payload_fraction;
            if (choice.protocol == NcclProtocol::ll128 && caps.tree_ll128 > 0) cap = cap > 0 ? std::min(cap, caps.tree_ll128) : caps.tree_ll128;
            break;
        case NcclAlgorithm::ring: cap = choice.protocol == NcclProtocol::ll128 ? caps.ring_ll128 : 0; break;
        case NcclAlgorithm::nvls_tree: cap = caps.nvls_tree; break;
        default: break;
    }
    return cap > 0 ? bus_bytes / cap : 0;
}

double nccl_tree_correction(NcclProtocol protocol, double bytes) {
    // treeCorrectionFactor of v2.30.7-1, LL, LL128 and Simple, at log2(bytes / 64) = 0 ... 22 (64 B to 256 MiB).
    static constexpr std::array<std::array<double, 23>, 3> kFactors{{
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},
    }};
    auto sixty_fourths = static_cast<unsigned long long>(bytes) >> 6;
    if (sixty_fourths == 0) return 1;
    size_t log_size = 0;
    while (sixty_fourths >>= 1) ++log_size;
    return log_size < kFactors[0].size() ? kFactors[nccl_protocol_index(protocol)][log_size] : 1;
}

double nccl_modelled_s(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice) {
    const auto& costs = parameters.costs(choice.protocol);
    const double n = call.ranks, k = call.ranks_per_node;
    const double link = call.nodes > 1 ? std::min(call.intra_bytes_per_second, call.inter_bytes_per_second) : call.intra_bytes_per_second;
    double seconds = 0;
    switch (choice.algorithm) {
        case NcclAlgorithm::tree: seconds = 2 * call.bytes / nccl_payload_rate(call, choice.protocol, costs.tree_payload_fraction, link); break;
        case NcclAlgorithm::nvls: seconds = call.bytes / (call.nvls_efficiency * call.intra_bytes_per_second); break;
        case NcclAlgorithm::nvls_tree:
            seconds = std::max(call.bytes / (call.nvls_efficiency * call.intra_bytes_per_second),
                               nccl_nvls_tree_net_bytes(call) / call.inter_bytes_per_second);
            break;
        case NcclAlgorithm::collnet:
            seconds = std::max(2 * (k - 1) / k * call.bytes / call.intra_bytes_per_second,
                               call.bytes / (call.collnet_efficiency * call.inter_bytes_per_second));
            break;
        // NCCL's model charges PAT the whole size at its bandwidth (no (n - 1)/n: tuning.cc converts only the ring's).
        case NcclAlgorithm::pat: seconds = call.bytes / (parameters.pat_payload_fraction * link); break;
        case NcclAlgorithm::ring:
        case NcclAlgorithm::automatic:
            seconds = (call.op == NetworkOp::allreduce ? 2 : 1) * (n - 1) / n * call.bytes /
                      nccl_payload_rate(call, choice.protocol, costs.ring_payload_fraction, link);
            break;
    }
    seconds = std::max(seconds, nccl_capped_s(parameters, call, choice));
    if (choice.algorithm == NcclAlgorithm::tree) seconds /= nccl_tree_correction(choice.protocol, call.bytes);
    const bool simple_ring = choice.algorithm == NcclAlgorithm::ring && choice.protocol == NcclProtocol::simple;
    return nccl_latency_s(parameters, call, choice) * (simple_ring ? call.ring_plateau : 1) + seconds;
}

NcclChoice choose_nccl(const NcclParameters& parameters, const NcclCall& call, const NcclSpec& forced) {
    const NcclAlgorithm algorithms[] = {NcclAlgorithm::ring, NcclAlgorithm::tree, NcclAlgorithm::nvls, NcclAlgorithm::nvls_tree,
                                        NcclAlgorithm::collnet, NcclAlgorithm::pat};
    const NcclProtocol protocols[] = {NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple};
    NcclChoice best;
    double best_s = std::numeric_limits<double>::infinity();
    auto consider = [&](bool honour_algorithm) {
        for (auto algorithm : algorithms)
            for (auto protocol : protocols) {
                const bool uses_nvls = algorithm == NcclAlgorithm::nvls || algorithm == NcclAlgorithm::nvls_tree;
                if (!applies(algorithm, protocol, call) || (uses_nvls && !forced.nvls) || (algorithm == NcclAlgorithm::pat && !forced.pat))
                    continue;
                if (honour_algorithm && forced.algorithm != NcclAlgorithm::automatic && forced.algorithm != algorithm) continue;
                if (forced.protocol != NcclProtocol::automatic && forced.protocol != protocol) continue;
                const double seconds = nccl_modelled_s(parameters, call, {algorithm, protocol});
                if (seconds < best_s) best_s = seconds, best = {algorithm, protocol};
            }
    };
    consider(true);
    // A forced algorithm that does not apply to this group gives way to the automatic choice (the ring
    // runs every protocol, so the second pass always finds one).
    if (best_s == std::numeric_limits<double>::infinity()) consider(false);
    return best;
}

}  // namespace dtsim
