#pragma once
// A scenario says what to run: the cluster, the model and the training strategy (docs/scenario.md).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/compression_spec.hpp"
#include "dtsim/hardware.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/name_table.hpp"
#include "dtsim/nccl_model.hpp"
#include "dtsim/parallelism.hpp"
#include "dtsim/precision.hpp"
#include "dtsim/profile.hpp"
#include "dtsim/straggler_spec.hpp"

namespace dtsim {

enum class Topology { star, fat_tree, rail_optimized, dragonfly, torus };
enum class NetworkModel { ideal, simgrid };
enum class Fidelity { step, flow };
enum class StrategyKind { allreduce, parameter_server, fsdp };
enum class AllReduceAlgorithm { ring, hierarchical, tree, halving_doubling, direct, nccl };
enum class ServerPlacement { dedicated, colocated };
enum class SyncMode { sync, async, ssp };
enum class Sharding { by_size, round_robin };

// The scenario's names of each choice, for the loader, the reports and the sweeps alike.
inline constexpr auto kTopologyNames = make_name_table(
    std::pair{Topology::star, "star"}, std::pair{Topology::fat_tree, "fat-tree"},
    std::pair{Topology::rail_optimized, "rail-optimized"}, std::pair{Topology::dragonfly, "dragonfly"},
    std::pair{Topology::torus, "torus"});
inline constexpr auto kNetworkModelNames =
    make_name_table(std::pair{NetworkModel::ideal, "ideal"}, std::pair{NetworkModel::simgrid, "simgrid"});
inline constexpr auto kFidelityNames = make_name_table(std::pair{Fidelity::step, "step"}, std::pair{Fidelity::flow, "flow"});
inline constexpr auto kStrategyKindNames = make_name_table(std::pair{StrategyKind::allreduce, "allreduce"},
                                                           std::pair{StrategyKind::parameter_server, "parameter-server"},
                                                           std::pair{StrategyKind::fsdp, "fsdp"});
inline constexpr auto kAllReduceAlgorithmNames = make_name_table(
    std::pair{AllReduceAlgorithm::ring, "ring"}, std::pair{AllReduceAlgorithm::hierarchical, "hierarchical"},
    std::pair{AllReduceAlgorithm::tree, "tree"}, std::pair{AllReduceAlgorithm::halving_doubling, "halving-doubling"},
    std::pair{AllReduceAlgorithm::direct, "direct"}, std::pair{AllReduceAlgorithm::nccl, "nccl"});
inline constexpr auto kServerPlacementNames = make_name_table(std::pair{ServerPlacement::dedicated, "dedicated"},
                                                              std::pair{ServerPlacement::colocated, "colocated"});
inline constexpr auto kSyncModeNames =
    make_name_table(std::pair{SyncMode::sync, "sync"}, std::pair{SyncMode::async, "async"}, std::pair{SyncMode::ssp, "ssp"});
inline constexpr auto kShardingNames =
    make_name_table(std::pair{Sharding::by_size, "by-size"}, std::pair{Sharding::round_robin, "round-robin"});

inline std::string to_string(Topology value) { return std::string(kTopologyNames.name(value)); }
inline std::string to_string(NetworkModel value) { return std::string(kNetworkModelNames.name(value)); }
inline std::string to_string(Fidelity value) { return std::string(kFidelityNames.name(value)); }
inline std::string to_string(StrategyKind value) { return std::string(kStrategyKindNames.name(value)); }
inline std::string to_string(AllReduceAlgorithm value) { return std::string(kAllReduceAlgorithmNames.name(value)); }
inline std::string to_string(ServerPlacement value) { return std::string(kServerPlacementNames.name(value)); }
inline std::string to_string(SyncMode value) { return std::string(kSyncModeNames.name(value)); }
inline std::string to_string(Sharding value) { return std::string(kShardingNames.name(value)); }

/// A link class as the scenario gives it: a preset, or bandwidth and latency written out (or both).
/// Where the scenario names a profile, its fit replaces these in the cost model.
struct LinkSpec {
    std::string preset;           // empty when given directly
    double bytes_per_second = 0;  // line rate, one direction; 0 where only a profile gives it
    double latency_s = 0;         // one-way, host to host
    double efficiency = 1;        // achieved / line rate
    /// The switches this link reaches reduce in the network (NVLS on an NVSwitch, SHARP on InfiniBand):
    /// the bandwidth an in-network all-reduce keeps, as a fraction of the link's; 0 where they cannot.
    double reduction_efficiency = 0;
    /// NCCL's ceiling on the LL protocol's bus bandwidth within one node whose GPUs this link joins (its
    /// tuning model's llMaxBws, per GPU generation); 0 where none is known.
    double ll_max_busbw = 0;
    /// How NVLS's bandwidth changes with a call's GPUs on the node (reduction_efficiency is for 8); none: it does not.
    std::optional<NvlsSearch> nvls_search;
    /// NCCL's channels between nodes of the GPUs this link joins, and its caps on their bus bandwidth; none: no caps.
    std::optional<NcclChannels> nccl_channels;
};

/// SimGrid's dragonfly with one chassis per group: routers of a group all-to-all, groups all-to-all.
struct DragonflySpec {
    int groups = 1;
    int routers_per_group = 1;
    int nodes_per_router = 1;
    int global_links = 1;  // parallel links between every two groups
    long long positions() const { return 1LL * groups * routers_per_group * nodes_per_router; }
};

struct FabricSpec {
    Topology topology = Topology::star;
    double oversubscription = 1;  // fat-tree: leaf down-links / up-links; rail-optimized: rail NICs / spine up-link
    int radix = 32;               // fat-tree: nodes per leaf switch, and children of every switch above
    int levels = 2;               // fat-tree: switch levels at most
    DragonflySpec dragonfly;
    std::vector<int> dimensions;  // torus: positions along each axis
    /// The leaf positions of a torus or dragonfly; 0 for the other fabrics, which take any number.
    long long positions() const;
};

struct ClusterSpec {
    int nodes = 1;
    int gpus_per_node = 1;
    GpuPreset gpu;
    LinkSpec intra_node;
    LinkSpec nic;           // each of a node's NICs
    int nics_per_node = 1;  // divides gpus_per_node
    FabricSpec fabric;
    NetworkModel network_model = NetworkModel::ideal;
    int gpus() const { return nodes * gpus_per_node; }
    /// The node GPU rank `rank` is on: ranks are node-major.
    int node_of(int rank) const { return rank / gpus_per_node; }
    /// The NIC GPU `local` of a node sends and receives through: consecutive GPUs share one.
    int nic_of_gpu(int local) const { return local * nics_per_node / gpus_per_node; }
};

/// The direct form of a model: whole-model times and gradient size, spread over equal layers.
struct DirectModel {
    double gradient_bytes = 0;
    double forward_s = 0;
    double backward_s = 0;
    int layers = 100;
};

struct ModelSpec {
    std::string name;  // zoo name, or "direct"
    Precision precision = Precision::fp32;
    int batch_per_gpu = 1;
    std::optional<ZooModel> zoo;    // the zoo entry; none for the direct form
    DirectModel direct;             // without a zoo entry
    std::optional<double> gemm_efficiency;    // zoo: achieved / peak GEMM rate, where given
    std::optional<double> single_gpu_step_s;  // zoo: a measured single-GPU step the layers are scaled to
    double recompute_fraction = 0;  // activation checkpointing: share of the forward recomputed in backward
    Attention attention = Attention::flash;  // transformers: how attention's core runs
};

struct StrategySpec {
    StrategyKind kind = StrategyKind::allreduce;
    AllReduceAlgorithm algorithm = AllReduceAlgorithm::ring;
    NcclSpec nccl;  // algorithm: nccl, what the scenario forces (training.strategy.nccl)
    double bucket_bytes = 25e6;
    bool overlap = true;
    int servers = 1;
    ServerPlacement placement = ServerPlacement::dedicated;
    SyncMode sync = SyncMode::sync;
    int staleness = 0;                         // ssp: how many iterations a worker may run ahead of the slowest
    Sharding sharding = Sharding::by_size;     // by-size: every bucket split over all servers; round-robin: whole
                                               // buckets, bucket k on server k mod P
    std::optional<double> aggregation_bytes_per_second;  // nullopt: aggregation is free
    int backup_workers = 0;  // synchronous training: a step goes on with the first N - b workers' gradients
    bool local_aggregation = false;  // parameter servers: the GPUs behind one NIC sum their gradients, push once
};

struct TrainingSpec {
    int iterations = 10;
    int accumulation_steps = 1;  // micro-batches of forward + backward per iteration, synchronised once (the
                                 // pipeline's microbatches with an LLM layout)
    StrategySpec strategy;
    Fidelity fidelity = Fidelity::step;
    StragglerSpec stragglers;
    CompressionSpec compression;
    /// training.optimizer: priced once per iteration, memory-bound. An LLM layout always runs one (Adam unless
    /// given); plain data parallelism runs the one given, none without it (docs/scenario.md).
    std::optional<OptimizerSpec> optimizer;
    std::optional<LlmSpec> llm;  // tensor/pipeline/context/expert parallelism, ZeRO or FSDP (docs/llm.md)
    /// The optimizer whose states the GPUs hold and an LLM layout steps: the one given, else Adam.
    OptimizerSpec optimizer_or_adam() const { return optimizer.value_or(OptimizerSpec{}); }
};

/// Deliberate faults for testing the simulator itself.
struct DebugSpec {
    int lose_message_to_rank = -1;  // the first message sent to this rank is never delivered
};

struct SweepAxis {
    std::string key;                  // dotted key, e.g. cluster.nodes
    std::vector<std::string> values;  // YAML text of each value
};

/// The profile a scenario names.
struct ProfileReference {
    std::string file;
    std::string name;
    std::string source;  // measured | datasheet
    std::shared_ptr<const Profile> fits;  // what the cost model prices the scenario with
};

struct Scenario {
    std::string name;
    std::string description;
    std::string file;            // where it was loaded from
    std::optional<ProfileReference> profile;
    std::string canonical_text;  // the YAML after --set overrides, as simulated
    std::string hash;            // FNV-1a of canonical_text, hex
    std::map<std::string, std::string> overrides;
    std::vector<std::string> warnings;  // implausible but valid values, each located (the CLI prints them)
    ClusterSpec cluster;
    ModelSpec model;
    TrainingSpec training;
    std::uint64_t seed = 1;
    std::vector<SweepAxis> sweep;
    DebugSpec debug;
    /// Samples one GPU trains on per iteration: every micro-batch of gradient accumulation counts.
    int samples_per_gpu_iteration() const { return model.batch_per_gpu * training.accumulation_steps; }
    /// Model replicas training on different samples: every GPU, or the data-parallel degree of an LLM layout.
    int replicas() const { return training.llm ? training.llm->parallelism.data : cluster.gpus(); }
    /// Samples per iteration over the whole job.
    double global_batch() const { return 1.0 * samples_per_gpu_iteration() * replicas(); }
};

/// Whether loading checks that every value of the file's `sweep:` section gives a valid scenario. A point
/// of a sweep is loaded without: the section is what --vary replaced or what the point came from.
enum class SweepValues { check, skip };

/// Loads a scenario; `overrides` are "key.path=value" strings applied before validation.
/// Throws InputError (with file, line and key) on any invalid input.
Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides = {},
                            SweepValues sweep_values = SweepValues::check);
Scenario load_scenario_text(const std::string& text, const std::string& file_label,
                            const std::vector<std::string>& overrides = {}, SweepValues sweep_values = SweepValues::check);

/// A scenario text parsed once and loaded with many sets of overrides (`dtsim plan`'s configurations).
/// load() gives what load_scenario_text(text, file_label, overrides, SweepValues::skip) gives, refusals'
/// messages included, but no warnings (a caller that prints them loads the text): it starts from a copy of
/// the parsed document, which has no line numbers, so a refused load is done again from the text for its
/// message. Safe to share between threads.
class ScenarioTemplate {
public:
    /// Throws InputError as load_scenario_text would for a text that does not parse.
    ScenarioTemplate(std::string text, std::string file_label);
    ScenarioTemplate(ScenarioTemplate&&) noexcept;
    ~ScenarioTemplate();
    Scenario load(const std::vector<std::string>& overrides) const;

private:
    struct Parsed;
    std::string text_;
    std::string file_label_;
    std::unique_ptr<Parsed> parsed_;
};

/// The leaves a fabric connects: the GPU nodes, then one node per dedicated parameter server.
int fabric_leaves(const Scenario& scenario);

/// GPUs that talk to parameter servers as one endpoint: those behind one NIC in flow fidelity or with local
/// aggregation, else each GPU alone.
int parameter_server_endpoint_gpus(const TrainingSpec& training, const ClusterSpec& cluster);

std::string fnv1a_hex(const std::string& text);

}  // namespace dtsim
