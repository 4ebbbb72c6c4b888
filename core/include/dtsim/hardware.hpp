#pragma once
// Hardware presets (data/hardware/): GPUs, network links and whole nodes, each labelled with its basis and source.
#include <map>
#include <optional>
#include <string>

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

struct NetworkPreset {
    std::string name;
    std::string description;
    std::string basis;
    double bytes_per_second = 0;  // line rate, one direction
    double latency_s = 0;         // one-way, host to host
    double efficiency = 1;        // achieved / line rate for large messages
    double reduction_efficiency = 0;  // in-network reduction (NVLS, SHARP): see LinkSpec; 0 where none
    double ll_max_busbw = 0;          // NCCL's LL ceiling within one node over this link: see LinkSpec; 0 where none
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
