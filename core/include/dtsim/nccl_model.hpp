#pragma once
// NCCL's collective structure as `algorithm: nccl` simulates it (docs/collectives.md): the algorithm and
// protocol choices a scenario may force, the per-protocol costs NCCL's own tuning model publishes, and the
// choice NCCL makes from them. The simulator (sim/src/nccl_collectives.cpp) moves the bytes as flows over the
// platform; these parameters add what flows do not carry: per-step latencies, a protocol's bytes on the wire
// per byte of payload, the pipeline's chunk.
#include <array>
#include <optional>

#include "dtsim/name_table.hpp"
#include "dtsim/network_ops.hpp"

namespace dtsim {

enum class NcclAlgorithm { automatic, ring, tree, nvls, nvls_tree, collnet, pat };
enum class NcclProtocol { automatic, ll, ll128, simple };

inline constexpr auto kNcclAlgorithmNames =
    make_name_table(std::pair{NcclAlgorithm::automatic, "auto"}, std::pair{NcclAlgorithm::ring, "ring"},
                    std::pair{NcclAlgorithm::tree, "tree"}, std::pair{NcclAlgorithm::nvls, "nvls"},
                    std::pair{NcclAlgorithm::nvls_tree, "nvls-tree"}, std::pair{NcclAlgorithm::collnet, "collnet"},
                    std::pair{NcclAlgorithm::pat, "pat"});
inline constexpr auto kNcclProtocolNames =
    make_name_table(std::pair{NcclProtocol::automatic, "auto"}, std::pair{NcclProtocol::ll, "ll"},
                    std::pair{NcclProtocol::ll128, "ll128"}, std::pair{NcclProtocol::simple, "simple"});

/// What `training.strategy.nccl` forces (NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE, NCCL_MIN/MAX_NCHANNELS);
/// unset: NCCL's choice.
struct NcclSpec {
    NcclAlgorithm algorithm = NcclAlgorithm::automatic;
    NcclProtocol protocol = NcclProtocol::automatic;
    bool nvls = true;                  // false: NVLS is never chosen, as with NCCL_NVLS_ENABLE=0
    bool pat = true;                   // false: PAT is never chosen, as with NCCL_PAT_ENABLE=0
    int channels = 0;                  // 0: one per NIC the group's ranks of a node reach, at least 1
    std::optional<double> chunk_bytes;  // the pipeline's chunk; unset: the protocol's step (NcclProtocolCosts)
};

/// An algorithm and protocol NCCL runs a call with.
struct NcclChoice {
    NcclAlgorithm algorithm = NcclAlgorithm::ring;
    NcclProtocol protocol = NcclProtocol::simple;
};

/// One protocol's costs in NCCL's tuning model (NVIDIA/nccl v2.30.7-1, src/graph/tuning.cc).
struct NcclProtocolCosts {
    double ring_base_latency_s = 0;  // baseLatencies[Ring]
    double tree_base_latency_s = 0;  // baseLatencies[Tree]
    // hwLatencies per hop: [intra-node over NVLink, intra-node over PCIe, between nodes]
    std::array<double, 3> ring_hop_latency_s{};
    std::array<double, 3> tree_hop_latency_s{};
    double ring_payload_fraction = 1;  // payload bytes per byte moved: the busBw factor of the ring model
    double tree_payload_fraction = 1;  // the same for the tree
    double step_payload_bytes = 0;     // payload of one pipeline step: the protocol's buffer / NCCL_STEPS
};

/// Every parameter of the NCCL model in one place, so that a calibrated profile can replace them.
struct NcclParameters {
    std::array<NcclProtocolCosts, 3> protocols{};  // ll, ll128, simple
    double net_overhead_s = 0;            // NCCL_NET_OVERHEAD: floor of a multi-node ring's intra-node step (x3 Simple)
    double nvls_latency_s = 0;            // hwLatencies[NVLINK][NVLS][Simple] (= [NVLINK][NVLSTree][Simple])
    double nvls_tree_net_latency_s = 0;   // hwLatencies[NET][NVLSTree][Simple]: one network hop of NVLSTree's tree
    // NVLS's and NVLSTree's pipeline: the compute channels each running every head's chunk at once (nvls.cc's
    // nvlsChannels, Hopper), the chunk (NCCL_NVLS_CHUNKSIZE) and NVLSTree's cap on it from 4 nodes on.
    int nvls_channels = 0;
    double nvls_chunk_bytes = 0;
    double nvls_tree_chunk_bytes_4_nodes = 0;
    double collnet_latency_s = 0;         // hwLatencies[NET][CollNetChain][Simple]
    double collnet_hop_latency_s = 0;     // hwLatencies[NVLINK][CollNetChain][Simple]: the intra-node chain's hop
    // PAT (reduce-scatter and all-gather with one rank per node): baseLatencies[PAT], its network hop
    // (hwLatencies[NET][Tree][Simple] with one rank per node) of which a tree level costs 1/3.5, the latency per
    // rank, and the busBw factor of its model.
    double pat_base_latency_s = 0;
    double pat_net_latency_s = 0;
    double pat_rank_latency_s = 0;
    double pat_payload_fraction = 1;
    // llMaxBws across nodes, Intel hosts: the LL protocol's bus bandwidth ceiling on 2 nodes and on more
    // (within one node the ceiling depends on the GPU and comes with the NVLink preset: LinkSpec::ll_max_busbw).
    std::array<double, 2> ll_max_busbw_across{};
    // What a call's latency takes, per protocol (LL, LL128, Simple), as a multiple of the modelled one: 1 unless a
    // profile measured NCCL's collectives (nccl_calibration.hpp). NCCL chooses with its modelled latencies.
    std::array<double, 3> latency_scale{1, 1, 1};
    // What a call's bytes take, per protocol, as a multiple of the modelled time (the busiest link's rate at the
    // protocol's payload fraction, and the pipeline's fill): 1 unless a profile measured NCCL's collectives at sizes
    // where the bytes weigh. NCCL chooses with its modelled bandwidths.
    std::array<double, 3> bandwidth_scale{1, 1, 1};
    const NcclProtocolCosts& costs(NcclProtocol protocol) const;
    double latency_scale_of(NcclProtocol protocol) const;
    double bandwidth_scale_of(NcclProtocol protocol) const;
};

/// A protocol's index in NcclParameters' per-protocol arrays: LL 0, LL128 1, Simple 2.
size_t nccl_protocol_index(NcclProtocol protocol);

/// NCCL v2.30.7-1's defaults (docs/collectives.md lists each with its source line).
NcclParameters nccl_defaults();

/// The intra-node hop class of NCCL's latency table.
enum class NcclHop { nvlink = 0, pci = 1, net = 2 };

/// NCCL's caps on a call's bus bandwidth between nodes (tuning.cc's perChMax*Bws times its channels; docs/collectives.md,
/// "Per-channel caps"): the tree's, the tree's with LL128, the ring's with LL128 and NVLSTree's; 0: none.
struct NcclCaps {
    double tree = 0;
    double tree_ll128 = 0;
    double ring_ll128 = 0;
    double nvls_tree = 0;
};

/// The shape of one collective as NCCL's model sees it.
struct NcclCall {
    NetworkOp op = NetworkOp::allreduce;  // allreduce, reducescatter or allgather
    int ranks = 1;
    int nodes = 1;
    int ranks_per_node = 1;               // the most of the group's ranks on one node
    int rails = 1;                        // the NICs the group's ranks on a node reach: NVLSTree's heads
    double bytes = 0;                     // as nccl-tests counts them
    NcclHop intra_hop = NcclHop::nvlink;
    double intra_bytes_per_second = 0;    // one GPU's intra-node link
    double inter_bytes_per_second = 0;    // a node's NICs the group's ranks there reach, together
    double nvls_efficiency = 0;           // 0: the intra-node switch cannot reduce (no NVLS)
    double collnet_efficiency = 0;        // 0: the fabric cannot reduce (no SHARP)
    double ll_max_busbw = 0;              // NCCL's ceiling on LL's bus bandwidth for this group; 0: none
    NcclCaps caps;                        // between nodes only: within one node they do not bind
    double ring_plateau = 1;              // NCCL's choice takes a Simple ring's latency times this (NcclChannels::ring_plateau)
};

/// The payload bytes per second a rank's flows over `link` carry under `protocol`, whose payload per byte
/// moved is `fraction`: fraction·link, and for LL at most NCCL's LL ceiling (call.ll_max_busbw).
double nccl_payload_rate(const NcclCall& call, NcclProtocol protocol, double fraction, double link);

/// The bytes' time of `call` run as `choice` at NCCL's cap on its bus bandwidth (call.caps): the bus bytes (2S for
/// the tree, 2(n - 1)/n·S for the ring and NVLSTree) at the cap, which for the tree with LL or LL128 is the tree's
/// cap at the protocol's payload fraction, and with LL128 at most its own; 0 where no cap applies.
double nccl_capped_s(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice);

/// NCCL's correction of a tree all-reduce's modelled bandwidth at `bytes` under `protocol` (tuning.cc's
/// treeCorrectionFactor, measured by NCCL's authors: trees run below the model at mid sizes); 1 outside its sizes.
double nccl_tree_correction(NcclProtocol protocol, double bytes);

/// The algorithm and protocol NCCL would run `call` with, `forced` applied: NCCL picks the pair of least
/// modelled time (latency + bytes / bandwidth). NVLS, NVLSTree, CollNet and PAT run Simple only; NVLS applies
/// within a node and NVLSTree across nodes with at least two heads (NICs) per node, both where `forced.nvls`
/// allows it; CollNet across nodes; PAT to reduce-scatters and all-gathers with one rank on each of several nodes
/// where `forced.pat` allows it; a forced one that does not apply gives way to the automatic choice.
NcclChoice choose_nccl(const NcclParameters& parameters, const NcclCall& call, const NcclSpec& forced);

/// NCCL's modelled latency of `call` run as `choice` (tuning.cc's latency formulas), in seconds.
double nccl_latency_s(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice);

/// NCCL's modelled time of `call` as `choice`: its latency (a Simple ring's times call.ring_plateau) plus the bytes
/// each rank moves at the bottleneck's rate or NCCL's cap (nccl_capped_s), the tree's at its correction by size. Used
/// to choose; the simulator times the bytes with flows.
double nccl_modelled_s(const NcclParameters& parameters, const NcclCall& call, NcclChoice choice);

/// The bytes an NVLSTree all-reduce of S sends (and receives) through a node's NICs, its heads' together:
/// S on 2 nodes (each head's share goes once each way: a leaf in one tree, the root in the other), 2S on
/// more (a node is interior in one tree of the double binary tree: its parent and two children).
double nccl_nvls_tree_net_bytes(const NcclCall& call);

}  // namespace dtsim
