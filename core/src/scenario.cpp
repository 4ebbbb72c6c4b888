#include "dtsim/scenario.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>

#include "dtsim/cost_model.hpp"
#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/simulation_footprint.hpp"
#include "dtsim/units.hpp"
#include "llm_spec_reader.hpp"
#include "profile_match.hpp"
#include "scenario_warnings.hpp"

namespace dtsim {

long long FabricSpec::positions() const {
    if (topology == Topology::dragonfly) return dragonfly.positions();
    if (topology != Topology::torus) return 0;
    long long product = 1;
    for (int size : dimensions) product *= size;
    return product;
}

int fabric_leaves(const Scenario& scenario) {
    const auto& strategy = scenario.training.strategy;
    const bool dedicated =
        strategy.kind == StrategyKind::parameter_server && strategy.placement == ServerPlacement::dedicated;
    return scenario.cluster.nodes + (dedicated ? strategy.servers : 0);
}

int parameter_server_endpoint_gpus(const TrainingSpec& training, const ClusterSpec& cluster) {
    const bool grouped = training.fidelity == Fidelity::flow || training.strategy.local_aggregation;
    return grouped ? cluster.gpus_per_node / cluster.nics_per_node : 1;
}

std::string fnv1a_hex(const std::string& text) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
    return buffer;
}

namespace {

constexpr long long kMaxNodes = 1 << 20;
constexpr long long kMaxGpusPerNode = 1024;
// Every sweep value is checked by building its scenario: the cap keeps loading a scenario quick.
constexpr size_t kMaxSweepValues = 128;
// Keeps batch_per_gpu × accumulation_steps (samples per GPU per iteration) within an int.
constexpr long long kMaxAccumulationSteps = 1024;

const std::initializer_list<std::string_view> kLinkKeys{"preset", "bandwidth", "latency", "efficiency", "in_network_reduction"};
// A NIC section also says how many NICs a node has.
const std::initializer_list<std::string_view> kNicKeys{"count", "preset", "bandwidth", "latency", "efficiency",
                                                       "in_network_reduction"};

LinkSpec read_link(const ConfigNode& parent, const std::string& key, const std::string& default_preset,
                   std::initializer_list<std::string_view> section_keys = kLinkKeys) {
    LinkSpec link;
    std::string preset = default_preset;
    std::optional<ConfigNode> section;
    if (parent.has(key) && parent.yaml()[key].IsScalar()) {
        preset = parent.text(key);
    } else if (parent.has(key)) {
        section = parent.child(key);
        section->require_map_with_keys(section_keys);
        if (section->has("preset")) preset = section->text("preset");
    }
    if (!preset.empty()) {
        auto net = load_network_preset(preset, section ? section->where("preset") : parent.where(key));
        link = LinkSpec{preset, net.bytes_per_second, net.latency_s, net.efficiency, net.reduction_efficiency, net.ll_max_busbw,
                        net.nvls_search, net.nccl_channels};
    }
    if (section) {
        if (section->has("bandwidth")) {
            link.bytes_per_second = section->bytes_per_second("bandwidth");
            // A bandwidth written out is taken as what the link delivers unless an efficiency is also given.
            if (!section->has("efficiency")) link.efficiency = 1;
        }
        if (section->has("latency")) link.latency_s = section->seconds("latency", Quantity::latency);
        if (section->has("efficiency")) link.efficiency = section->number("efficiency", 0.01, 1.0);
        if (section->has("in_network_reduction"))
            link.reduction_efficiency = section->number("in_network_reduction", 0.0, 1.0);
        if (link.bytes_per_second <= 0) section->fail("bandwidth", "is missing; expected a bandwidth such as 400Gbps or a preset");
        if (!section->has("latency") && preset.empty()) section->fail("latency", "is missing; expected a duration such as 2us");
    }
    if (link.bytes_per_second <= 0) parent.fail(key, "is missing; expected a network preset name or {bandwidth, latency}");
    return link;
}

bool nic_link_written(const ConfigNode& cluster) {
    if (!cluster.has("nic")) return false;
    const auto& nic = cluster.yaml()["nic"];
    return !(nic.IsMap() && nic.size() == 1 && nic["count"].IsDefined());
}

// `default_count`: the node preset's NICs, else one; a count written under `nic` replaces it.
int read_nic_count(const ConfigNode& cluster, int gpus_per_node, int default_count) {
    const bool written = cluster.has("nic") && cluster.yaml()["nic"].IsMap() && cluster.child("nic").has("count");
    if (!written) {
        if (gpus_per_node % default_count != 0)
            cluster.fail(cluster.has("gpus_per_node") ? "gpus_per_node" : "node",
                         "the node preset's " + std::to_string(default_count) + " NICs must divide gpus_per_node (" +
                             std::to_string(gpus_per_node) + "); give nic.count too");
        return default_count;
    }
    const auto nic = cluster.child("nic");
    const auto count = static_cast<int>(nic.integer("count", 1, kMaxGpusPerNode));
    if (gpus_per_node % count != 0)
        nic.fail("count", "must divide gpus_per_node (" + std::to_string(gpus_per_node) + "): GPU i of a node uses " +
                              "NIC i * count / gpus_per_node, so every NIC serves as many GPUs");
    return count;
}

// The keys each topology takes besides `topology`.
std::vector<std::string_view> topology_keys(Topology topology) {
    switch (topology) {
        case Topology::star: return {};
        case Topology::fat_tree: return {"radix", "levels", "oversubscription"};
        case Topology::rail_optimized: return {"oversubscription"};
        case Topology::dragonfly: return {"groups", "routers_per_group", "nodes_per_router", "global_links"};
        case Topology::torus: return {"dimensions"};
    }
    return {};
}

void require_keys_of_topology(const ConfigNode& fabric, Topology topology) {
    const auto keys = topology_keys(topology);
    for (const auto& entry : fabric.yaml()) {
        const auto key = entry.first.as<std::string>();
        if (key == "topology" || std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        std::string known = "topology";
        for (const auto& k : keys) known += ", " + std::string(k);
        fabric.fail(key, "does not apply to a " + to_string(topology) + " fabric; its keys are: " + known);
    }
}

DragonflySpec read_dragonfly(const ConfigNode& fabric) {
    DragonflySpec dragonfly;
    dragonfly.groups = static_cast<int>(fabric.integer("groups", 1, 4096));
    dragonfly.routers_per_group = static_cast<int>(fabric.integer("routers_per_group", 1, 4096));
    dragonfly.nodes_per_router = static_cast<int>(fabric.integer("nodes_per_router", 1, 4096));
    if (fabric.has("global_links")) dragonfly.global_links = static_cast<int>(fabric.integer("global_links", 1, 4096));
    // SimGrid gives router j of every group the global link to group j.
    if (dragonfly.groups > dragonfly.routers_per_group)
        fabric.fail("groups", "must not exceed routers_per_group (" + std::to_string(dragonfly.routers_per_group) +
                                  "): router j of each group holds the global link to group j");
    return dragonfly;
}

std::vector<int> read_torus_dimensions(const ConfigNode& fabric) {
    const auto list = fabric.child("dimensions");
    if (!list.yaml().IsSequence() || list.yaml().size() < 1 || list.yaml().size() > 3)
        list.fail("", "expected a list of 1 to 3 sizes, such as [4, 4] or [4, 4, 4]");
    std::vector<int> dimensions;
    for (const auto& size : list.sequence()) dimensions.push_back(static_cast<int>(size.integer("", 1, 4096)));
    return dimensions;
}

// Fails at the key that sets a torus's or dragonfly's number of positions.
[[noreturn]] void fail_positions(const ConfigNode& fabric_node, const FabricSpec& fabric, const std::string& expected) {
    fabric_node.fail(fabric.topology == Topology::torus ? "dimensions" : "groups",
                     "the " + to_string(fabric.topology) + " has " + std::to_string(fabric.positions()) + " positions" +
                         expected);
}

FabricSpec read_fabric(const ConfigNode& node) {
    node.require_map_with_keys({"topology", "radix", "levels", "oversubscription", "groups", "routers_per_group",
                                "nodes_per_router", "global_links", "dimensions"});
    FabricSpec fabric;
    if (node.has("topology")) fabric.topology = node.choice("topology", kTopologyNames);
    require_keys_of_topology(node, fabric.topology);
    if (node.has("oversubscription")) fabric.oversubscription = node.number("oversubscription", 1, 64);
    if (node.has("radix")) fabric.radix = static_cast<int>(node.integer("radix", 2, 4096));
    if (node.has("levels")) fabric.levels = static_cast<int>(node.integer("levels", 1, 4));
    if (fabric.topology == Topology::fat_tree && fabric.oversubscription > fabric.radix)
        node.fail("oversubscription", "must not exceed the radix (" + std::to_string(fabric.radix) + ")");
    if (fabric.topology == Topology::dragonfly) fabric.dragonfly = read_dragonfly(node);
    if (fabric.topology == Topology::torus) fabric.dimensions = read_torus_dimensions(node);
    // Every position is built, used or not.
    if (fabric.positions() > kMaxNodes) fail_positions(node, fabric, "; expected at most " + std::to_string(kMaxNodes));
    return fabric;
}

// Torus and dragonfly fabrics have a fixed number of positions: every GPU node and dedicated server needs one.
void check_fabric_positions(const ConfigNode& doc, const Scenario& scenario) {
    const auto& fabric = scenario.cluster.fabric;
    const int leaves = fabric_leaves(scenario);
    if (fabric.positions() == 0 || fabric.positions() >= leaves) return;
    const int servers = leaves - scenario.cluster.nodes;
    const auto server_text = servers > 0 ? " + " + std::to_string(servers) + " dedicated parameter servers" : "";
    fail_positions(doc.child("cluster").child("fabric"), fabric,
                   " but the cluster needs " + std::to_string(leaves) + " (" + std::to_string(scenario.cluster.nodes) +
                       " nodes" + server_text + ")");
}

ClusterSpec read_cluster(const ConfigNode& doc, bool has_profile) {
    auto node = doc.child("cluster");
    node.require_map_with_keys({"nodes", "node", "gpus_per_node", "gpu", "intra_node", "nic", "fabric", "network_model"});
    // A node preset gives the keys left out; each key written replaces the preset's.
    std::optional<NodePreset> preset;
    if (node.has("node")) preset = load_node_preset(node.text("node"), node.where("node"));
    ClusterSpec cluster;
    cluster.nodes = static_cast<int>(node.integer("nodes", 1, kMaxNodes));
    cluster.gpus_per_node = node.has("gpus_per_node") ? static_cast<int>(node.integer("gpus_per_node", 1, kMaxGpusPerNode))
                            : preset                  ? preset->gpus_per_node
                                                      : 1;
    if (node.has("gpu") || !preset)
        cluster.gpu = load_gpu_preset(node.text("gpu"), node.where("gpu"));
    else
        cluster.gpu = load_gpu_preset(preset->gpu, node.where("node"));
    cluster.intra_node = read_link(node, "intra_node", preset ? preset->intra_node : cluster.gpu.intra_node);
    // With a profile the NIC may be left out (`nic: {count: 8}` then only says how many): the cost model
    // takes the profile's inter-node fit, or says that it has none. One written out is still checked.
    if (nic_link_written(node) || !has_profile || preset) cluster.nic = read_link(node, "nic", preset ? preset->nic : "", kNicKeys);
    cluster.nics_per_node = read_nic_count(node, cluster.gpus_per_node, preset ? preset->nic_count : 1);
    if (node.has("fabric")) cluster.fabric = read_fabric(node.child("fabric"));
    if (node.has("network_model")) cluster.network_model = node.choice("network_model", kNetworkModelNames);
    return cluster;
}

Precision read_precision(const ConfigNode& node) {
    if (!node.has("precision")) return Precision::fp32;
    // tf32: fp32 training with the GEMMs and convolutions on TF32 Tensor Cores (the preset's tf32 peak).
    return node.choice("precision", kPrecisionNames);
}

// `activation_checkpointing: true | false | fraction`: the share of the forward recomputed in backward.
double read_recompute_fraction(const ConfigNode& node) {
    constexpr std::string_view key = "activation_checkpointing";
    if (!node.has(key)) return 0;
    const auto value = node.yaml()[std::string(key)];
    const std::string expected = "expected true, false or the fraction of the forward recomputed in backward (0 to 1)";
    if (!value.IsScalar()) node.fail(key, expected);
    bool flag = false;
    if (YAML::convert<bool>::decode(value, flag)) return flag ? 1.0 : 0.0;
    char* end = nullptr;
    const double fraction = std::strtod(value.Scalar().c_str(), &end);
    if (end == value.Scalar().c_str() || *end != '\0' || !(fraction >= 0 && fraction <= 1))
        node.fail(key, expected + ", got '" + value.Scalar() + "'");
    return fraction;
}

ModelSpec read_model(const ConfigNode& doc, const std::string& scenario_file) {
    auto node = doc.child("model");
    ModelSpec model;
    const bool zoo = node.has("zoo");
    const bool direct = node.has("gradient_bytes") || node.has("forward_time") || node.has("backward_time");
    if (zoo && direct)
        node.fail("zoo", "give either a zoo model or the direct form (gradient_bytes, forward_time, backward_time), not both");
    if (!zoo && !direct)
        node.fail("zoo", "is missing; expected a zoo model name or the direct form {gradient_bytes, forward_time, backward_time}");
    model.precision = read_precision(node);
    // An LLM layout may give model.micro_batch instead (llm_spec_reader.cpp).
    if (!node.has("micro_batch")) model.batch_per_gpu = static_cast<int>(node.integer("batch_per_gpu", 1, 1 << 20));
    if (zoo) {
        node.require_map_with_keys(
            {"zoo", "batch_per_gpu", "micro_batch", "sequence_length", "precision", "single_gpu_step_time", "efficiency",
             "activation_checkpointing", "attention"});
        model.zoo = load_model(node.text("zoo"), scenario_file, node.where("zoo"));
        model.name = model.zoo->name;
        if (node.has("attention")) {
            if (!model.zoo->transformer) node.fail("attention", "applies to transformer models only ('" + model.name + "' is not one)");
            model.attention = node.choice("attention", kAttentionNames);
        }
        if (model.zoo->transformer)
            model.zoo->layers = transformer_layers(*model.zoo->transformer, model.zoo->transformer->sequence_length, model.attention);
        if (node.has("efficiency")) model.gemm_efficiency = node.number("efficiency", 0.01, 1.0);
        if (node.has("single_gpu_step_time")) {
            model.single_gpu_step_s = node.seconds("single_gpu_step_time");
            if (*model.single_gpu_step_s <= 0) node.fail("single_gpu_step_time", "must be positive");
        }
    } else {
        node.require_map_with_keys(
            {"gradient_bytes", "forward_time", "backward_time", "batch_per_gpu", "precision", "layers", "activation_checkpointing"});
        model.name = "direct";
        model.direct.gradient_bytes = node.bytes("gradient_bytes");
        model.direct.forward_s = node.seconds("forward_time");
        model.direct.backward_s = node.seconds("backward_time");
        if (model.direct.gradient_bytes <= 0) node.fail("gradient_bytes", "must be positive");
        if (node.has("layers")) model.direct.layers = static_cast<int>(node.integer("layers", 1, 100000));
    }
    model.recompute_fraction = read_recompute_fraction(node);
    return model;
}

// training.strategy.nccl: NCCL_ALGO, NCCL_PROTO and the channel count as a scenario forces them.
NcclSpec read_nccl(const ConfigNode& strategy, AllReduceAlgorithm algorithm, const ClusterSpec& cluster) {
    if (algorithm != AllReduceAlgorithm::nccl) strategy.fail("nccl", "applies only to algorithm: nccl");
    auto node = strategy.child("nccl");
    node.require_map_with_keys({"algorithm", "protocol", "nvls", "pat", "channels", "chunk"});
    NcclSpec spec;
    if (node.has("algorithm")) spec.algorithm = node.choice("algorithm", kNcclAlgorithmNames);
    if (node.has("protocol")) spec.protocol = node.choice("protocol", kNcclProtocolNames);
    if (node.has("nvls")) spec.nvls = node.boolean("nvls");
    if (node.has("pat")) spec.pat = node.boolean("pat");
    if (node.has("channels")) spec.channels = static_cast<int>(node.integer("channels", 1, 64));
    if (node.has("chunk")) {
        spec.chunk_bytes = node.bytes("chunk");
        if (*spec.chunk_bytes <= 0) node.fail("chunk", "must be a positive size such as 512KiB");
    }
    const bool uses_nvls = spec.algorithm == NcclAlgorithm::nvls || spec.algorithm == NcclAlgorithm::nvls_tree;
    const auto algorithm_name = std::string(kNcclAlgorithmNames.name(spec.algorithm));
    if (uses_nvls && !spec.nvls) node.fail("algorithm", algorithm_name + ", but nvls: false disables it");
    if (uses_nvls && cluster.intra_node.reduction_efficiency <= 0)
        node.fail("algorithm", algorithm_name + " needs an intra-node link whose switches reduce (cluster.intra_node.in_network_reduction)");
    if (spec.algorithm == NcclAlgorithm::collnet && cluster.nic.reduction_efficiency <= 0)
        node.fail("algorithm", "collnet needs a fabric whose switches reduce (cluster.nic.in_network_reduction)");
    if (spec.algorithm == NcclAlgorithm::pat && !spec.pat) node.fail("algorithm", "pat, but pat: false disables it");
    const bool simple_only = uses_nvls || spec.algorithm == NcclAlgorithm::collnet || spec.algorithm == NcclAlgorithm::pat;
    if (simple_only && spec.protocol != NcclProtocol::automatic && spec.protocol != NcclProtocol::simple)
        node.fail("protocol", "nvls, nvls-tree, collnet and pat run the simple protocol only");
    return spec;
}

StrategySpec read_strategy(const ConfigNode& training, const ClusterSpec& cluster) {
    auto node = training.child("strategy");
    StrategySpec strategy;
    strategy.kind = node.choice("kind", kStrategyKindNames);
    if (strategy.kind != StrategyKind::parameter_server) {
        // sharding, prefetch and reduce_precision are read with the LLM layout (llm_spec_reader.cpp).
        if (strategy.kind == StrategyKind::fsdp)
            node.require_map_with_keys({"kind", "algorithm", "nccl", "bucket", "overlap", "sharding", "prefetch", "reduce_precision"});
        else
            node.require_map_with_keys(
                {"kind", "algorithm", "nccl", "bucket", "overlap", "backup_workers", "prefetch", "reduce_precision"});
        // Unless given, the all-reduce runs as the device's collectives library does: NCCL's structure on GPUs.
        strategy.algorithm = node.has("algorithm")                              ? node.choice("algorithm", kAllReduceAlgorithmNames)
                             : cluster.gpu.collectives == CollectiveLibrary::nccl ? AllReduceAlgorithm::nccl
                                                                                  : AllReduceAlgorithm::ring;
        if (node.has("nccl")) strategy.nccl = read_nccl(node, strategy.algorithm, cluster);
    } else {
        node.require_map_with_keys(
            {"kind", "servers", "placement", "sync", "staleness", "sharding", "bucket", "overlap", "aggregation_bandwidth",
             "backup_workers", "local_aggregation"});
        strategy.servers = static_cast<int>(node.has("servers") ? node.integer("servers", 1, 4096) : 1);
        if (node.has("placement")) strategy.placement = node.choice("placement", kServerPlacementNames);
        if (node.has("sync")) strategy.sync = node.choice("sync", kSyncModeNames);
        if (strategy.sync == SyncMode::ssp && !node.has("staleness"))
            node.fail("staleness", "is missing; sync: ssp needs a staleness bound, such as staleness: 2");
        if (node.has("staleness")) {
            if (strategy.sync != SyncMode::ssp) node.fail("staleness", "applies only to sync: ssp");
            strategy.staleness = static_cast<int>(node.integer("staleness", 0, 1000000));
        }
        if (node.has("sharding")) strategy.sharding = node.choice("sharding", kShardingNames);
        if (node.has("aggregation_bandwidth")) {
            if (node.yaml()["aggregation_bandwidth"].IsScalar() && node.yaml()["aggregation_bandwidth"].Scalar() == "unlimited")
                strategy.aggregation_bytes_per_second.reset();
            else
                strategy.aggregation_bytes_per_second = node.bytes_per_second("aggregation_bandwidth");
        } else {
            // A server sums gradients at host memory speed; 20 GB/s is a conservative single-socket figure.
            strategy.aggregation_bytes_per_second = 20e9;
        }
        if (node.has("local_aggregation")) strategy.local_aggregation = node.boolean("local_aggregation");
        if (strategy.placement == ServerPlacement::colocated && strategy.servers > cluster.nodes)
            node.fail("servers", "colocated servers run one per node: at most " + std::to_string(cluster.nodes) + " here");
    }
    if (node.has("bucket")) {
        strategy.bucket_bytes = node.bytes("bucket");
        if (strategy.bucket_bytes <= 0) node.fail("bucket", "must be a positive size such as 25MB");
    }
    if (node.has("overlap")) strategy.overlap = node.boolean("overlap");
    if (node.has("backup_workers")) {
        strategy.backup_workers = static_cast<int>(node.integer("backup_workers", 0, cluster.gpus() - 1));
        if (strategy.kind == StrategyKind::parameter_server && strategy.sync != SyncMode::sync)
            node.fail("backup_workers", "applies to synchronous training only (sync: sync)");
        if ((strategy.algorithm == AllReduceAlgorithm::hierarchical || strategy.algorithm == AllReduceAlgorithm::nccl) &&
            strategy.kind == StrategyKind::allreduce)
            node.fail("backup_workers", "needs a flat all-reduce (ring, tree, halving-doubling or direct), not " +
                                            to_string(strategy.algorithm) +
                                            (node.has("algorithm") ? "" : " (the default on GPUs: set algorithm: ring)"));
    }
    return strategy;
}

// Checks that need the strategy, the fidelity and the faults together.
void check_fault_tolerance(const ConfigNode& node, const TrainingSpec& training, const ClusterSpec& cluster) {
    const auto& strategy = training.strategy;
    const bool shared_endpoints = parameter_server_endpoint_gpus(training, cluster) > 1;
    if (strategy.kind == StrategyKind::parameter_server && strategy.backup_workers > 0 && shared_endpoints)
        node.child("strategy").fail("backup_workers",
                                    "with a parameter server needs one NIC per GPU, or fidelity: step without local_aggregation "
                                    "(otherwise the GPUs behind one NIC push as one)");
    const auto& failure = training.stragglers.node_failure;
    if (!failure.any() || failure.recovery != Recovery::drop) return;
    const auto where = node.child("stragglers").child("node_failure");
    if (strategy.kind == StrategyKind::allreduce && strategy.algorithm == AllReduceAlgorithm::hierarchical)
        where.fail("recovery", "drop needs a flat all-reduce (ring, tree, halving-doubling or direct), not hierarchical");
    if (strategy.kind == StrategyKind::parameter_server && strategy.placement == ServerPlacement::colocated &&
        failure.node < strategy.servers)
        where.fail("node", "hosts colocated parameter server " + std::to_string(failure.node) + "; drop cannot go on without it");
    if (cluster.gpus() - cluster.gpus_per_node <= strategy.backup_workers)
        where.fail("recovery", "drop would leave no more workers than strategy.backup_workers");
}

// training.optimizer. A parameter server applies the update on the servers, which nothing here prices.
OptimizerSpec read_optimizer(const ConfigNode& training, const StrategySpec& strategy) {
    if (strategy.kind == StrategyKind::parameter_server)
        training.fail("optimizer", "is not modelled with a parameter server (the servers apply the update); remove it "
                                   "or use strategy kind allreduce");
    const auto node = training.child("optimizer");
    node.require_map_with_keys({"kind", "master_weights"});
    OptimizerSpec optimizer;
    if (node.has("kind")) optimizer.kind = node.choice("kind", kOptimizerKindNames);
    if (node.has("master_weights")) optimizer.fp32_master_weights = node.choice("master_weights", {"fp32", "none"}) == "fp32";
    return optimizer;
}

TrainingSpec read_training(const ConfigNode& doc, const ClusterSpec& cluster, Precision precision) {
    auto node = doc.child("training");
    node.require_map_with_keys({"iterations", "accumulation_steps", "strategy", "fidelity", "stragglers", "compression",
                                "parallelism", "pipeline", "zero", "optimizer", "recompute", "global_batch", "expert_imbalance"});
    TrainingSpec training;
    if (node.has("iterations")) training.iterations = static_cast<int>(node.integer("iterations", 1, 1000000));
    if (node.has("accumulation_steps"))
        training.accumulation_steps = static_cast<int>(node.integer("accumulation_steps", 1, kMaxAccumulationSteps));
    training.strategy = read_strategy(node, cluster);
    if (node.has("fidelity")) training.fidelity = node.choice("fidelity", kFidelityNames);
    if (node.has("stragglers")) training.stragglers = read_stragglers(node.child("stragglers"), cluster);
    if (node.has("compression")) training.compression = read_compression(node.child("compression"), precision);
    // PowerSGD computes Q from the sum of every worker's P: a second round trip per bucket that the
    // parameter-server exchange (one push, one pull) does not have.
    if (training.compression.kind == CompressionKind::powersgd && training.strategy.kind == StrategyKind::parameter_server)
        node.child("compression").fail("kind", "powersgd needs an all-reduce of its factors; with a parameter server use "
                                               "fp16, int8 or topk");
    if (node.has("optimizer")) training.optimizer = read_optimizer(node, training.strategy);
    check_fault_tolerance(node, training, cluster);
    return training;
}

// `profile:` names a file (absolute, or relative to the scenario's folder, then to the working folder)
// or, without a folder or .json, a shipped profile in data/profiles/.
std::filesystem::path resolve_profile_path(const ConfigNode& doc, const std::string& scenario_file) {
    const std::string value = doc.text("profile");
    const std::filesystem::path given(value);
    const bool named = given.parent_path().empty() && given.extension() != ".json";
    if (named) return require_data_file("profiles", value, "profile", doc.where("profile"), ".json");
    std::error_code ignored;
    if (given.is_relative()) {
        const auto beside = std::filesystem::path(scenario_file).parent_path() / given;
        if (std::filesystem::exists(beside, ignored)) return beside;
    }
    if (!std::filesystem::exists(given, ignored)) doc.fail("profile", "no such file '" + value + "'; expected a profile JSON written by dtsim fit, or a shipped profile name");
    return given;
}

std::vector<SweepAxis> read_sweep(const ConfigNode& doc) {
    std::vector<SweepAxis> axes;
    if (!doc.has("sweep")) return axes;
    auto node = doc.child("sweep");
    if (!node.is_map()) node.fail("", "expected a mapping of dotted keys to lists of values");
    size_t listed = 0;
    for (const auto& entry : node.yaml()) {
        if (!entry.first.IsScalar() && !entry.first.IsNull())
            node.fail("", std::string("expected each key to be a dotted key such as cluster.nodes, got ") +
                              (entry.first.IsSequence() ? "a list" : "a mapping") + " as a key");
        const auto key = entry.first.as<std::string>();
        auto values = node.child(key);
        SweepAxis axis{key, {}};
        for (const auto& value : values.sequence()) {
            if (++listed > kMaxSweepValues)
                node.fail(key, "the sweep lists more than " + std::to_string(kMaxSweepValues) +
                                   " values in all; expected at most that many (split it into smaller sweeps)");
            YAML::Emitter out;
            out << YAML::Flow << value.yaml();
            axis.values.push_back(out.c_str());
        }
        if (axis.values.empty()) node.fail(key, "expected a non-empty list of values");
        axes.push_back(axis);
    }
    return axes;
}

// Whether a load lists the scenario's warnings (implausible_values: the memory estimate among them). Only a
// caller that prints them needs them: the checks of sweep values and ScenarioTemplate's loads skip them,
// and `dtsim plan` estimates each configuration's memory once, itself.
enum class Warnings { list, skip };

Scenario build_scenario(YAML::Node root, std::shared_ptr<DocumentSource> source, const std::vector<std::string>& overrides,
                        bool check_sweep_values, Warnings warnings);

// What clearly cannot fit in this machine's memory is refused now, before a platform is built: it would end
// in std::bad_alloc or an abort inside SimGrid. Blamed on the cluster's size or on the number of iterations,
// whichever needs more.
void check_footprint(const ConfigNode& doc, const Scenario& scenario) {
    const auto footprint = estimate_footprint(scenario);
    const auto memory = static_cast<double>(physical_memory_bytes());
    if (memory == 0 || footprint.bytes() <= memory) return;
    const std::string expected = "simulating it needs " + describe(footprint) + " of memory, more than this machine's " +
                                 format_bytes(memory) + "; expected ";
    if (footprint.platform_bytes >= footprint.timeline_bytes)
        doc.child("cluster").fail("nodes", expected + "a cluster that fits (fewer nodes or GPUs per node)");
    doc.child("training").fail("iterations", expected + "fewer iterations (or microbatches) to record");
}

// A loaded scenario can always be priced: where its profile cannot (a link class or precision it did not
// fit), the scenario key the cost model blames gets the message, or its section where the key is absent.
void check_costs(const ConfigNode& doc, const Scenario& scenario) {
    try {
        const CostModel costs(scenario);
    } catch (const CostModelError& e) {
        const auto dot = e.key.rfind('.');
        if (dot == std::string::npos) doc.fail(e.key, e.what());
        const auto section = e.key.substr(0, dot), key = e.key.substr(dot + 1);
        if (doc.child(section).has(key)) doc.child(section).fail(key, e.what());
        doc.fail(section, e.what());
    }
}

// Every value listed under `sweep:` must give a valid scenario: a bad one is reported at its sweep entry
// now, not when `dtsim sweep` reaches it.
void check_sweep_values(const YAML::Node& root, const DocumentSource& source, const std::vector<SweepAxis>& axes,
                        const ConfigNode& sweep) {
    // Each point is checked without the sweep section itself: copying, reading and emitting the whole
    // sweep again for every value made the check quadratic in the number of values.
    YAML::Node base = YAML::Clone(root);
    base.remove("sweep");
    for (const auto& axis : axes)
        for (const auto& value : axis.values) {
            try {
                build_scenario(YAML::Clone(base), std::make_shared<DocumentSource>(source), {axis.key + "=" + value}, false,
                               Warnings::skip);
            } catch (const InputError& e) {
                std::string reason = e.what();
                if (reason.rfind("command line (", 0) == 0) reason = reason.substr(reason.find("): ") + 3);
                sweep.fail(axis.key, "the value " + value + " does not give a valid scenario: " + reason);
            }
        }
}

// `--set cluster.nic=PRESET` changes the kind of each NIC: a `count` the file gives stays. A section given
// instead (`cluster.nic={preset: ib-ndr, count: 2}`) replaces the file's whole.
void apply_scenario_override(YAML::Node& root, const std::string& assignment, DocumentSource& source) {
    // Const and IsDefined() first: reading a missing key must neither create it nor throw.
    const auto written_nic = [&root]() -> YAML::Node {
        const YAML::Node& file = root;
        if (!file.IsMap() || !file["cluster"].IsDefined() || !file["cluster"].IsMap()) return YAML::Node();
        return file["cluster"]["nic"].IsDefined() ? file["cluster"]["nic"] : YAML::Node();
    };
    std::optional<YAML::Node> count;
    if (const auto nic = written_nic(); assignment.rfind("cluster.nic=", 0) == 0 && nic.IsMap() && nic["count"].IsDefined())
        count = YAML::Clone(nic["count"]);
    apply_override(root, assignment, source);
    const auto preset = written_nic();
    if (!count || !preset.IsScalar()) return;
    YAML::Node nic(YAML::NodeType::Map);
    nic["count"] = *count;
    nic["preset"] = preset.Scalar();
    root["cluster"]["nic"] = nic;
}

Scenario build_scenario(YAML::Node root, std::shared_ptr<DocumentSource> source, const std::vector<std::string>& overrides,
                        bool check_sweep, Warnings warnings) {
    for (const auto& assignment : overrides) apply_scenario_override(root, assignment, *source);
    ConfigNode doc(root, "", source);
    if (!root.IsMap()) doc.fail("", "expected a scenario mapping with name, cluster, model and training");
    doc.require_map_with_keys({"name", "description", "profile", "profile_mismatch", "cluster", "model", "training", "seed", "sweep", "debug"});

    Scenario scenario;
    scenario.file = source->file;
    scenario.overrides = source->overrides;
    scenario.name = doc.text("name");
    if (doc.has("description")) scenario.description = doc.text("description");
    if (doc.has("profile")) {
        const auto path = resolve_profile_path(doc, source->file);
        auto profile = load_shared_profile_file(path.string());
        scenario.profile = ProfileReference{path.string(), profile->name, profile->source, profile};
    }
    scenario.cluster = read_cluster(doc, scenario.profile.has_value());
    check_profile_matches(doc, scenario);
    scenario.model = read_model(doc, source->file);
    scenario.training = read_training(doc, scenario.cluster, scenario.model.precision);
    read_llm(doc, scenario);
    check_fabric_positions(doc, scenario);
    if (doc.has("seed")) scenario.seed = static_cast<std::uint64_t>(doc.integer("seed", 0, (1LL << 62)));
    scenario.sweep = read_sweep(doc);
    if (check_sweep && !scenario.sweep.empty()) check_sweep_values(root, *source, scenario.sweep, doc.child("sweep"));
    if (doc.has("debug")) {
        auto debug = doc.child("debug");
        debug.require_map_with_keys({"lose_message_to_rank"});
        scenario.debug.lose_message_to_rank =
            static_cast<int>(debug.integer("lose_message_to_rank", 0, scenario.cluster.gpus() - 1));
    }
    check_costs(doc, scenario);
    check_footprint(doc, scenario);
    if (warnings == Warnings::list) scenario.warnings = implausible_values(doc, scenario);
    YAML::Emitter out;
    out << root;
    scenario.canonical_text = out.c_str();
    scenario.hash = fnv1a_hex(scenario.canonical_text);
    return scenario;
}

}  // namespace

Scenario load_scenario_text(const std::string& text, const std::string& file_label, const std::vector<std::string>& overrides,
                            SweepValues sweep_values) {
    auto source = std::make_shared<DocumentSource>(DocumentSource{file_label, {}});
    auto doc = ConfigNode::parse(text, source);
    return build_scenario(doc.yaml(), source, overrides, sweep_values == SweepValues::check, Warnings::list);
}

struct ScenarioTemplate::Parsed {
    std::mutex mutex;  // yaml-cpp's const reads of a map update a cache: one copy at a time
    YAML::Node root;
};

ScenarioTemplate::ScenarioTemplate(std::string text, std::string file_label)
    : text_(std::move(text)), file_label_(std::move(file_label)), parsed_(std::make_unique<Parsed>()) {
    parsed_->root = ConfigNode::parse(text_, std::make_shared<DocumentSource>(DocumentSource{file_label_, {}})).yaml();
}

ScenarioTemplate::ScenarioTemplate(ScenarioTemplate&&) noexcept = default;
ScenarioTemplate::~ScenarioTemplate() = default;

Scenario ScenarioTemplate::load(const std::vector<std::string>& overrides) const {
    YAML::Node root;
    {
        const std::lock_guard lock(parsed_->mutex);
        root = YAML::Clone(parsed_->root);
    }
    try {
        // Without warnings: they would be located without the file's lines.
        return build_scenario(root, std::make_shared<DocumentSource>(DocumentSource{file_label_, {}}), overrides, false,
                              Warnings::skip);
    } catch (const InputError&) {
        load_scenario_text(text_, file_label_, overrides, SweepValues::skip);  // throws the message with its line
        throw;
    }
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides, SweepValues sweep_values) {
    return load_scenario_text(read_text_file(path), path, overrides, sweep_values);
}

}  // namespace dtsim
