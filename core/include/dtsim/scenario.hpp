#pragma once
// A scenario says what to run: the cluster, the model and the training strategy (docs/scenario.md).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtsim/compression_spec.hpp"
#include "dtsim/hardware.hpp"
#include "dtsim/incast.hpp"
#include "dtsim/precision.hpp"
#include "dtsim/profile.hpp"
#include "dtsim/straggler_spec.hpp"

namespace dtsim {

enum class Topology { star, fat_tree, rail_optimized, dragonfly, torus };
enum class NetworkModel { ideal, simgrid };
enum class Fidelity { step, flow };
enum class StrategyKind { allreduce, parameter_server };
enum class AllReduceAlgorithm { ring, hierarchical, tree, halving_doubling, direct };
enum class ServerPlacement { dedicated, colocated };
enum class SyncMode { sync, async, ssp };
enum class Sharding { by_size, round_robin };

std::string to_string(Topology value);
std::string to_string(NetworkModel value);
std::string to_string(Fidelity value);
std::string to_string(StrategyKind value);
std::string to_string(AllReduceAlgorithm value);
std::string to_string(ServerPlacement value);
std::string to_string(SyncMode value);
std::string to_string(Sharding value);

struct LinkSpec {
    std::string preset;           // empty when given directly; "profile:NAME" when calibrated
    double bytes_per_second = 0;  // line rate, one direction
    double latency_s = 0;         // one-way, host to host
    double efficiency = 1;        // achieved / line rate
    std::optional<LinkCost> calibrated;  // from the scenario's profile: sets the three above, adds overheads
    std::map<int, LinkCost> ring_steps;  // the profile's ring steps timed with so many ranks (Profile::ring_step_costs)
    double effective_bytes_per_second() const { return bytes_per_second * efficiency; }
    /// A message's cost beyond the link's flow (none without a profile; see LinkCost::message_cost). A step
    /// of a ring of `ring_members` ranks takes the ring step timed with as many where the profile has one.
    MessageCost message_cost(double bytes, bool first_of_pass = false, int ring_members = 0) const;
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
    /// The profile's collectives timed one at a time (latency mode): what a collective cost on the
    /// calibrated cluster, for groups of the calibrated size (calibrated_collectives.hpp in sim).
    std::vector<NetworkFit> calibrated_collectives;
    /// The profile's inter-node pair exchange against its ring step, when it has both (pair_exchange_extra_s
    /// in sim adds the difference to exchanges both ways with one peer).
    std::optional<PairExchange> inter_node_exchange;
    /// The profile's inter-node incast (incast.hpp): what a NIC keeps of its receiving rate under
    /// simultaneous senders. Empty without a profile that calibrated it: ports are shared perfectly.
    IncastCurve incast;
    int gpus() const { return nodes * gpus_per_node; }
    /// The latency-mode fit of `op` over `ranks` ranks on `nodes` nodes, if the profile has one.
    const NetworkFit* calibrated_collective(std::string_view op, int ranks, int node_count) const;
    /// The NIC GPU `local` of a node sends and receives through: consecutive GPUs share one.
    int nic_of_gpu(int local) const { return local * nics_per_node / gpus_per_node; }
};

/// One layer's work on one GPU in one iteration, with the per-GPU batch applied.
struct LayerWork {
    std::string name;
    double gradient_bytes = 0;
    double forward_s = 0;
    double backward_s = 0;
};

struct ModelSpec {
    std::string name;  // zoo name, or "direct"
    Precision precision = Precision::fp32;
    int batch_per_gpu = 1;
    std::vector<LayerWork> layers;  // forward order; backward includes any activation recompute
    double recompute_fraction = 0;  // activation checkpointing: share of the forward recomputed in backward
    double flops_per_second = 0;         // achieved compute and memory rates of one GPU, for work the model
    double memory_bytes_per_second = 0;  // adds (gradient compression): the profile's, else the preset's
    std::vector<CodecFit> codecs;        // the profile's fitted compression kernels; empty: memory-bound passes
    std::optional<SharedCores> shared_cores;  // the profile's: ranks that time-share cores for that work
    double gradient_bytes() const;
    double forward_s() const;
    double backward_s() const;
};

struct StrategySpec {
    StrategyKind kind = StrategyKind::allreduce;
    AllReduceAlgorithm algorithm = AllReduceAlgorithm::ring;
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
};

struct TrainingSpec {
    int iterations = 10;
    int accumulation_steps = 1;  // micro-batches of forward + backward per iteration, synchronised once
    StrategySpec strategy;
    Fidelity fidelity = Fidelity::step;
    StragglerSpec stragglers;
    CompressionSpec compression;
};

/// Deliberate faults for testing the simulator itself.
struct DebugSpec {
    int lose_message_to_rank = -1;  // the first message sent to this rank is never delivered
};

struct SweepAxis {
    std::string key;                  // dotted key, e.g. cluster.nodes
    std::vector<std::string> values;  // YAML text of each value
};

/// The profile a scenario names, as far as reports need it.
struct ProfileReference {
    std::string file;
    std::string name;
    std::string source;  // measured | datasheet
};

struct Scenario {
    std::string name;
    std::string description;
    std::string file;            // where it was loaded from
    std::optional<ProfileReference> profile;
    std::string canonical_text;  // the YAML after --set overrides, as simulated
    std::string hash;            // FNV-1a of canonical_text, hex
    std::map<std::string, std::string> overrides;
    ClusterSpec cluster;
    ModelSpec model;
    TrainingSpec training;
    std::uint64_t seed = 1;
    std::vector<SweepAxis> sweep;
    DebugSpec debug;
    /// Samples one GPU trains on per iteration: every micro-batch of gradient accumulation counts.
    int samples_per_gpu_iteration() const { return model.batch_per_gpu * training.accumulation_steps; }
};

/// Loads a scenario; `overrides` are "key.path=value" strings applied before validation.
/// Throws InputError (with file, line and key) on any invalid input.
Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides = {});
Scenario load_scenario_text(const std::string& text, const std::string& file_label,
                            const std::vector<std::string>& overrides = {});

/// The leaves a fabric connects: the GPU nodes, then one node per dedicated parameter server.
int fabric_leaves(const Scenario& scenario);

std::string fnv1a_hex(const std::string& text);

}  // namespace dtsim
