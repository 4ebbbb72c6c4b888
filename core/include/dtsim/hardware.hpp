#pragma once
// Hardware presets (data/hardware/): GPUs, network links and whole nodes, each labelled with its basis and source.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/name_table.hpp"
#include "dtsim/precision.hpp"

namespace dtsim {

/// The library that runs a device's collectives: NCCL on NVIDIA GPUs, MPI between CPU workers (the testbed).
enum class CollectiveLibrary { nccl, mpi };
inline constexpr auto kCollectiveLibraryNames =
    make_name_table(std::pair{CollectiveLibrary::nccl, "nccl"}, std::pair{CollectiveLibrary::mpi, "mpi"});

struct GpuPreset {
    std::string name;
    std::string description;
    std::string basis;                              // "datasheet-derived", "calibrated", ...
    std::map<Precision, double> peak_flops_per_second;  // dense, no sparsity
    double memory_bytes = 0;
    double memory_bytes_per_second = 0;
    double gemm_efficiency = 1;    // achieved / peak for large GEMMs
    double memory_efficiency = 1;  // achieved / peak memory bandwidth
    double attention_efficiency = 1;  // achieved / peak of the attention core's products at long sequences
    int streaming_multiprocessors = 0;  // SMs a GEMM's output tiles are spread over (gemm_shape.hpp); 0: not
                                        // given (a CPU), every GEMM at the large GEMM's rate
    std::string intra_node;        // network preset for GPU-to-GPU links inside a node
    std::string host_link;         // network preset for the host (PCIe) link
    CollectiveLibrary collectives = CollectiveLibrary::nccl;  // decides a scenario's default all-reduce algorithm

    /// Throws InputError when the GPU has no peak for this precision.
    double peak_for(Precision precision, const std::string& where) const;
};

/// NCCL's NVLS channel search within one NVSwitch node (NVIDIA/nccl v2.30.7-1 src/graph/search.cc,
/// ncclTopoSearchTryNvls; docs/collectives.md, "DGX H100"): a call's k GPUs each head one of k channels and carry
/// k + 1 channel shares of their NVLinks' total, at the fastest of the architecture's search speeds that fits.
struct NvlsSearch {
    double nvlink_total = 0;     // a GPU's NVLinks in NCCL's units (links × SM90_NVLINK_BW, ...), bytes/s
    std::vector<double> speeds;  // the architecture's intra-node search speeds (sm90SpeedArrayIntra, ...), fastest first
    /// NVLS's bandwidth with `gpus` GPUs against 8, which the presets' in_network_reduction is derived for:
    /// gpus · speed(gpus) / (8 · speed(8)).
    double scale(int gpus) const;
};

/// NCCL's channels between nodes and its caps on a channel's bus bandwidth, for one GPU generation (NVIDIA/nccl
/// v2.30.7-1 src/graph/search.cc and tuning.cc; docs/collectives.md, "Per-channel caps").
struct NcclChannels {
    std::vector<double> speeds;  // the generation's speeds between nodes (speedArrayInter, ...), fastest first, bytes/s
    // ncclTopoDupChannels doubles the search's channels from this speed with 4 channels or fewer, and with more.
    double duplicate_few = 0;
    double duplicate_many = 0;
    // The caps on one search channel's bus bandwidth on 2 nodes and on more: perChMaxTreeBws, perChMaxTreeLL128Bws,
    // perChMaxRingLL128Bws, perChMaxNVLSTreeBws.
    std::array<double, 2> tree{};
    std::array<double, 2> tree_ll128{};
    std::array<double, 2> ring_ll128{};
    std::array<double, 2> nvls_tree{};
    // NCCL's choice takes a multi-node Simple ring all-reduce's latency times this (ncclTopoGetAlgoTime's "plateau
    // effect of ring": 1.4 from compute capability 8.0 on, 1.9 before).
    double ring_plateau = 1;
    /// The search's channels across `nics` NICs of `nic_rate` each (line rate): one per NIC at the fastest speed
    /// within the rate, doubled as ncclTopoDupChannels doubles them.
    int search_channels(int nics, double nic_rate) const;
};

struct NetworkPreset {
    std::string name;
    std::string description;
    std::string basis;
    double bytes_per_second = 0;  // line rate, one direction
    double latency_s = 0;         // one-way, host to host
    double efficiency = 1;        // achieved / line rate for large messages
    double reduction_efficiency = 0;  // in-network reduction (NVLS, SHARP): see LinkSpec; 0 where none
    double ll_max_busbw = 0;          // NCCL's LL ceiling within one node over this link: see LinkSpec; 0 where none
    std::optional<NvlsSearch> nvls_search;  // how NVLS's bandwidth changes with the GPUs of a call: see LinkSpec
    std::optional<NcclChannels> nccl_channels;  // NCCL's channels between nodes of GPUs this link joins: see LinkSpec
};

/// A whole server (data/hardware/node/): the values a scenario's `cluster.node` gives the keys it leaves out.
struct NodePreset {
    std::string name;
    std::string description;
    std::string basis;
    int gpus_per_node = 1;
    std::string gpu;         // GPU preset
    std::string intra_node;  // network preset
    std::string nic;         // network preset of each NIC
    int nic_count = 1;
};

/// Loads data/hardware/<kind>/<name>.yaml. Unknown names give an InputError listing the known ones;
/// `where` is the location of the key that asked for it.
GpuPreset load_gpu_preset(const std::string& name, const std::string& where);
NetworkPreset load_network_preset(const std::string& name, const std::string& where);
NodePreset load_node_preset(const std::string& name, const std::string& where);

}  // namespace dtsim
