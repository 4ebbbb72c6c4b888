#include "dtsim/scenario.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "dtsim/compute_model.hpp"
#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/sum_over.hpp"

namespace dtsim {

// The scenario's names of the fabric topologies, in enum order.
const std::initializer_list<std::string_view> kTopologies{"star", "fat-tree", "rail-optimized", "dragonfly", "torus"};

std::string to_string(Topology value) { return std::string(kTopologies.begin()[static_cast<size_t>(value)]); }
std::string to_string(NetworkModel value) { return value == NetworkModel::ideal ? "ideal" : "simgrid"; }
std::string to_string(Fidelity value) { return value == Fidelity::step ? "step" : "flow"; }
std::string to_string(StrategyKind value) {
    return value == StrategyKind::allreduce ? "allreduce" : "parameter-server";
}

// The scenario's names of the all-reduce algorithms, in enum order.
const std::initializer_list<std::string_view> kAllReduceAlgorithms{"ring", "hierarchical", "tree", "halving-doubling",
                                                                   "direct"};

std::string to_string(AllReduceAlgorithm value) {
    return std::string(kAllReduceAlgorithms.begin()[static_cast<size_t>(value)]);
}
std::string to_string(ServerPlacement value) {
    return value == ServerPlacement::dedicated ? "dedicated" : "colocated";
}
std::string to_string(SyncMode value) {
    return value == SyncMode::sync ? "sync" : value == SyncMode::async ? "async" : "ssp";
}
std::string to_string(Sharding value) { return value == Sharding::by_size ? "by-size" : "round-robin"; }

MessageCost LinkSpec::message_cost(double bytes, bool first_of_pass, int ring_members) const {
    if (!calibrated) return {0, bytes};
    const auto step = ring_steps.find(ring_members);
    const LinkCost& timed = step != ring_steps.end() ? step->second : *calibrated;
    return calibrated->carrying(timed.fitted_s(bytes, first_of_pass), bytes);
}

const NetworkFit* ClusterSpec::calibrated_collective(std::string_view op, int ranks, int node_count) const {
    for (const auto& fit : calibrated_collectives)
        if (fit.op == op && fit.ranks == ranks && fit.nodes == node_count) return &fit;
    return nullptr;
}

double ModelSpec::gradient_bytes() const { return sum_over(layers, &LayerWork::gradient_bytes); }
double ModelSpec::forward_s() const { return sum_over(layers, &LayerWork::forward_s); }
double ModelSpec::backward_s() const { return sum_over(layers, &LayerWork::backward_s); }

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

const std::initializer_list<std::string_view> kLinkKeys{"preset", "bandwidth", "latency", "efficiency"};
// A NIC section also says how many NICs a node has.
const std::initializer_list<std::string_view> kNicKeys{"count", "preset", "bandwidth", "latency", "efficiency"};

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
        link = LinkSpec{preset, net.bytes_per_second, net.latency_s, net.efficiency, std::nullopt, {}};
    }
    if (section) {
        if (section->has("bandwidth")) {
            link.bytes_per_second = section->bytes_per_second("bandwidth");
            // A bandwidth written out is taken as what the link delivers unless an efficiency is also given.
            if (!section->has("efficiency")) link.efficiency = 1;
        }
        if (section->has("latency")) link.latency_s = section->seconds("latency");
        if (section->has("efficiency")) link.efficiency = section->number("efficiency", 0.01, 1.0);
        if (link.bytes_per_second <= 0) section->fail("bandwidth", "is missing; expected a bandwidth such as 400Gbps or a preset");
        if (!section->has("latency") && preset.empty()) section->fail("latency", "is missing; expected a duration such as 2us");
    }
    if (link.bytes_per_second <= 0) parent.fail(key, "is missing; expected a network preset name or {bandwidth, latency}");
    return link;
}

// A profile's point-to-point fit of a link class sets that link: its latency and bandwidth, and the
// per-message overheads of the small-message regimes. A link the cluster uses must be covered.
void apply_profile_link(LinkSpec& link, const Profile& profile, LinkClass link_class, int ring_members, const ConfigNode& doc) {
    const bool used = ring_members > 1;
    const auto cost = profile.link_cost(link_class, ring_members);
    if (!cost) {
        if (used)
            doc.fail("profile", "profile '" + profile.name + "' has no " + std::string(to_string(link_class)) +
                                    " point-to-point fit, which this cluster needs; calibrate with ranks " +
                                    (link_class == LinkClass::inter_node ? "on more than one node" : "sharing a node") +
                                    ", or remove the profile");
        return;
    }
    link = LinkSpec{"profile:" + profile.name, cost->bytes_per_second, cost->latency_s, 1.0, *cost, profile.ring_step_costs(link_class)};
}

bool nic_link_written(const ConfigNode& cluster) {
    if (!cluster.has("nic")) return false;
    const auto& nic = cluster.yaml()["nic"];
    return !(nic.IsMap() && nic.size() == 1 && nic["count"].IsDefined());
}

int read_nic_count(const ConfigNode& cluster, int gpus_per_node) {
    if (!cluster.has("nic") || !cluster.yaml()["nic"].IsMap()) return 1;
    const auto nic = cluster.child("nic");
    if (!nic.has("count")) return 1;
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
    if (node.has("topology")) {
        const auto name = node.choice("topology", kTopologies);
        const auto index = std::find(kTopologies.begin(), kTopologies.end(), name) - kTopologies.begin();
        fabric.topology = static_cast<Topology>(index);
    }
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

ClusterSpec read_cluster(const ConfigNode& doc, const Profile* profile) {
    auto node = doc.child("cluster");
    node.require_map_with_keys({"nodes", "gpus_per_node", "gpu", "intra_node", "nic", "fabric", "network_model"});
    ClusterSpec cluster;
    cluster.nodes = static_cast<int>(node.integer("nodes", 1, kMaxNodes));
    cluster.gpus_per_node = static_cast<int>(node.has("gpus_per_node") ? node.integer("gpus_per_node", 1, kMaxGpusPerNode) : 1);
    cluster.gpu = load_gpu_preset(node.text("gpu"), node.where("gpu"));
    cluster.intra_node = read_link(node, "intra_node", cluster.gpu.intra_node);
    LinkSpec profile_nic;
    if (profile) {
        // A node's ring has its GPUs; the ring across nodes, one rank per node.
        apply_profile_link(cluster.intra_node, *profile, LinkClass::intra_node, cluster.gpus_per_node, doc);
        apply_profile_link(profile_nic, *profile, LinkClass::inter_node, cluster.nodes, doc);
        for (const auto& fit : profile->network)
            if (fit.mode == "latency" && fit.op != "sendrecv" && fit.op != "exchange" && fit.op != "pingpong")
                cluster.calibrated_collectives.push_back(fit);
        cluster.inter_node_exchange = profile->pair_exchange(LinkClass::inter_node);
        cluster.incast = inter_node_incast(*profile);
    }
    // The NIC may be left out when the profile sets it (`nic: {count: 8}` then only says how many); one
    // written out is still checked, then overridden.
    if (nic_link_written(node) || !profile_nic.calibrated) cluster.nic = read_link(node, "nic", "", kNicKeys);
    if (profile_nic.calibrated) cluster.nic = profile_nic;
    cluster.nics_per_node = read_nic_count(node, cluster.gpus_per_node);
    if (node.has("fabric")) cluster.fabric = read_fabric(node.child("fabric"));
    if (node.has("network_model"))
        cluster.network_model = node.choice("network_model", {"ideal", "simgrid"}) == "ideal" ? NetworkModel::ideal : NetworkModel::simgrid;
    return cluster;
}

Precision read_precision(const ConfigNode& node) {
    if (!node.has("precision")) return Precision::fp32;
    return *precision_from_string(node.choice("precision", {"fp32", "fp16", "bf16"}));
}

// Compute rates of a zoo model: the profile's fitted GEMM curve and memory bandwidth when there is one,
// else the GPU preset's peaks times its efficiencies.
ComputeRates read_compute_rates(const ConfigNode& node, Precision precision, const GpuPreset& gpu, const Profile* profile) {
    const auto precision_where = node.has("precision") ? node.where("precision") : node.where("zoo");
    if (profile && profile->compute) {
        if (node.has("efficiency"))
            node.fail("efficiency", "conflicts with the profile's fitted GEMM rate; remove one of them");
        const auto& compute = *profile->compute;
        const GemmFit* gemm = compute.gemm_for(precision);
        if (!gemm) {
            std::string measured;
            for (const auto& fit : compute.gemm) measured += (measured.empty() ? "" : ", ") + std::string(to_string(fit.precision));
            throw InputError(precision_where + ": profile '" + profile->name + "' has no " + std::string(to_string(precision)) +
                             " GEMM fit (it has: " + measured + "); choose one of those precisions");
        }
        return ComputeRates{gemm->flops_per_second, compute.memory_bytes_per_second, gemm->fixed_s};
    }
    const double peak = gpu.peak_for(precision, precision_where);
    const double efficiency = node.has("efficiency") ? node.number("efficiency", 0.01, 1.0) : gpu.gemm_efficiency;
    return ComputeRates{peak * efficiency, gpu.memory_bytes_per_second * gpu.memory_efficiency, kKernelLaunchOverheadS};
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

ModelSpec read_model(const ConfigNode& doc, const GpuPreset& gpu, const Profile* profile) {
    auto node = doc.child("model");
    ModelSpec model;
    const bool zoo = node.has("zoo");
    const bool direct = node.has("gradient_bytes") || node.has("forward_time") || node.has("backward_time");
    if (zoo && direct)
        node.fail("zoo", "give either a zoo model or the direct form (gradient_bytes, forward_time, backward_time), not both");
    if (!zoo && !direct)
        node.fail("zoo", "is missing; expected a zoo model name or the direct form {gradient_bytes, forward_time, backward_time}");
    model.precision = read_precision(node);
    model.batch_per_gpu = static_cast<int>(node.integer("batch_per_gpu", 1, 1 << 20));
    if (zoo) {
        node.require_map_with_keys(
            {"zoo", "batch_per_gpu", "precision", "single_gpu_step_time", "efficiency", "activation_checkpointing"});
        auto entry = load_zoo_model(node.text("zoo"), node.where("zoo"));
        model.name = entry.name;
        const auto rates = read_compute_rates(node, model.precision, gpu, profile);
        model.layers = layer_times(entry, model.batch_per_gpu, model.precision, rates);
        model.flops_per_second = rates.flops_per_second;
        model.memory_bytes_per_second = rates.memory_bytes_per_second;
        if (node.has("single_gpu_step_time")) {
            const double step = node.seconds("single_gpu_step_time");
            if (step <= 0) node.fail("single_gpu_step_time", "must be positive");
            scale_to_step_time(model.layers, step);
        }
    } else {
        node.require_map_with_keys(
            {"gradient_bytes", "forward_time", "backward_time", "batch_per_gpu", "precision", "layers", "activation_checkpointing"});
        model.name = "direct";
        // Times are given; extra work (compression) runs at the profile's rates, else the GPU preset's.
        if (const auto peak = gpu.peak_flops_per_second.find(model.precision); peak != gpu.peak_flops_per_second.end())
            model.flops_per_second = peak->second * gpu.gemm_efficiency;
        model.memory_bytes_per_second = gpu.memory_bytes_per_second * gpu.memory_efficiency;
        if (profile && profile->compute) {
            const auto& compute = *profile->compute;
            // A CPU calibration fits fp32 GEMMs only; its fp32 rate is still the device's rather than a preset's.
            const GemmFit* gemm = compute.gemm_for(model.precision);
            if (!gemm) gemm = compute.gemm_for(Precision::fp32);
            if (gemm) model.flops_per_second = gemm->flops_per_second;
            model.memory_bytes_per_second = compute.memory_bytes_per_second;
        }
        const double gradient = node.bytes("gradient_bytes");
        const double forward = node.seconds("forward_time");
        const double backward = node.seconds("backward_time");
        if (gradient <= 0) node.fail("gradient_bytes", "must be positive");
        // Gradients become ready evenly through backward, as with many equal layers.
        const int count = static_cast<int>(node.has("layers") ? node.integer("layers", 1, 100000) : 100);
        for (int i = 0; i < count; ++i)
            model.layers.push_back(LayerWork{"layer" + std::to_string(i), gradient / count, forward / count, backward / count});
    }
    if (profile && profile->compute) {
        model.codecs = profile->compute->codecs;
        model.shared_cores = profile->compute->shared_cores;
    }
    // After any single_gpu_step_time scaling: that measured step is the one without recompute.
    model.recompute_fraction = read_recompute_fraction(node);
    add_recompute(model.layers, model.recompute_fraction);
    return model;
}

StrategySpec read_strategy(const ConfigNode& training, const ClusterSpec& cluster) {
    auto node = training.child("strategy");
    StrategySpec strategy;
    const auto kind = node.choice("kind", {"allreduce", "parameter-server"});
    if (kind == "allreduce") {
        node.require_map_with_keys({"kind", "algorithm", "bucket", "overlap", "backup_workers"});
        strategy.kind = StrategyKind::allreduce;
        if (node.has("algorithm")) {
            const auto name = node.choice("algorithm", kAllReduceAlgorithms);
            strategy.algorithm = static_cast<AllReduceAlgorithm>(
                std::find(kAllReduceAlgorithms.begin(), kAllReduceAlgorithms.end(), name) - kAllReduceAlgorithms.begin());
        }
    } else {
        node.require_map_with_keys(
            {"kind", "servers", "placement", "sync", "staleness", "sharding", "bucket", "overlap", "aggregation_bandwidth",
             "backup_workers"});
        strategy.kind = StrategyKind::parameter_server;
        strategy.servers = static_cast<int>(node.has("servers") ? node.integer("servers", 1, 4096) : 1);
        if (node.has("placement"))
            strategy.placement = node.choice("placement", {"dedicated", "colocated"}) == "dedicated" ? ServerPlacement::dedicated
                                                                                                     : ServerPlacement::colocated;
        if (node.has("sync")) {
            const auto mode = node.choice("sync", {"sync", "async", "ssp"});
            strategy.sync = mode == "sync" ? SyncMode::sync : mode == "async" ? SyncMode::async : SyncMode::ssp;
        }
        if (strategy.sync == SyncMode::ssp && !node.has("staleness"))
            node.fail("staleness", "is missing; sync: ssp needs a staleness bound, such as staleness: 2");
        if (node.has("staleness")) {
            if (strategy.sync != SyncMode::ssp) node.fail("staleness", "applies only to sync: ssp");
            strategy.staleness = static_cast<int>(node.integer("staleness", 0, 1000000));
        }
        if (node.has("sharding"))
            strategy.sharding = node.choice("sharding", {"by-size", "round-robin"}) == "by-size" ? Sharding::by_size
                                                                                              : Sharding::round_robin;
        if (node.has("aggregation_bandwidth")) {
            if (node.yaml()["aggregation_bandwidth"].IsScalar() && node.yaml()["aggregation_bandwidth"].Scalar() == "unlimited")
                strategy.aggregation_bytes_per_second.reset();
            else
                strategy.aggregation_bytes_per_second = node.bytes_per_second("aggregation_bandwidth");
        } else {
            // A server sums gradients at host memory speed; 20 GB/s is a conservative single-socket figure.
            strategy.aggregation_bytes_per_second = 20e9;
        }
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
        if (strategy.algorithm == AllReduceAlgorithm::hierarchical && strategy.kind == StrategyKind::allreduce)
            node.fail("backup_workers", "needs a flat all-reduce (ring, tree, halving-doubling or direct), not hierarchical");
    }
    return strategy;
}

// Checks that need the strategy, the fidelity and the faults together.
void check_fault_tolerance(const ConfigNode& node, const TrainingSpec& training, const ClusterSpec& cluster) {
    const auto& strategy = training.strategy;
    const bool shared_endpoints = training.fidelity == Fidelity::flow && cluster.gpus_per_node > cluster.nics_per_node;
    if (strategy.kind == StrategyKind::parameter_server && strategy.backup_workers > 0 && shared_endpoints)
        node.child("strategy").fail("backup_workers",
                                    "with a parameter server needs fidelity: step or one NIC per GPU (in flow fidelity the "
                                    "GPUs behind one NIC push as one)");
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

TrainingSpec read_training(const ConfigNode& doc, const ClusterSpec& cluster, Precision precision) {
    auto node = doc.child("training");
    node.require_map_with_keys({"iterations", "accumulation_steps", "strategy", "fidelity", "stragglers", "compression"});
    TrainingSpec training;
    if (node.has("iterations")) training.iterations = static_cast<int>(node.integer("iterations", 1, 1000000));
    if (node.has("accumulation_steps"))
        training.accumulation_steps = static_cast<int>(node.integer("accumulation_steps", 1, kMaxAccumulationSteps));
    training.strategy = read_strategy(node, cluster);
    if (node.has("fidelity")) training.fidelity = node.choice("fidelity", {"step", "flow"}) == "step" ? Fidelity::step : Fidelity::flow;
    if (node.has("stragglers")) training.stragglers = read_stragglers(node.child("stragglers"), cluster);
    if (node.has("compression")) training.compression = read_compression(node.child("compression"), precision);
    // PowerSGD computes Q from the sum of every worker's P: a second round trip per bucket that the
    // parameter-server exchange (one push, one pull) does not have.
    if (training.compression.kind == CompressionKind::powersgd && training.strategy.kind == StrategyKind::parameter_server)
        node.child("compression").fail("kind", "powersgd needs an all-reduce of its factors; with a parameter server use "
                                               "fp16, int8 or topk");
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

Scenario build_scenario(YAML::Node root, std::shared_ptr<DocumentSource> source, const std::vector<std::string>& overrides,
                        bool check_sweep_values);

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
                build_scenario(YAML::Clone(base), std::make_shared<DocumentSource>(source), {axis.key + "=" + value}, false);
            } catch (const InputError& e) {
                std::string reason = e.what();
                if (reason.rfind("command line (", 0) == 0) reason = reason.substr(reason.find("): ") + 3);
                sweep.fail(axis.key, "the value " + value + " does not give a valid scenario: " + reason);
            }
        }
}

Scenario build_scenario(YAML::Node root, std::shared_ptr<DocumentSource> source, const std::vector<std::string>& overrides,
                        bool check_sweep) {
    for (const auto& assignment : overrides) apply_override(root, assignment, *source);
    ConfigNode doc(root, "", source);
    if (!root.IsMap()) doc.fail("", "expected a scenario mapping with name, cluster, model and training");
    doc.require_map_with_keys({"name", "description", "profile", "cluster", "model", "training", "seed", "sweep", "debug"});

    Scenario scenario;
    scenario.file = source->file;
    scenario.overrides = source->overrides;
    scenario.name = doc.text("name");
    if (doc.has("description")) scenario.description = doc.text("description");
    std::optional<Profile> profile;
    if (doc.has("profile")) {
        const auto path = resolve_profile_path(doc, source->file);
        profile = load_profile_file(path.string());
        scenario.profile = ProfileReference{path.string(), profile->name, profile->source};
    }
    const Profile* profile_ptr = profile ? &*profile : nullptr;
    scenario.cluster = read_cluster(doc, profile_ptr);
    scenario.model = read_model(doc, scenario.cluster.gpu, profile_ptr);
    scenario.training = read_training(doc, scenario.cluster, scenario.model.precision);
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
    YAML::Emitter out;
    out << root;
    scenario.canonical_text = out.c_str();
    scenario.hash = fnv1a_hex(scenario.canonical_text);
    return scenario;
}

}  // namespace

Scenario load_scenario_text(const std::string& text, const std::string& file_label, const std::vector<std::string>& overrides) {
    auto source = std::make_shared<DocumentSource>(DocumentSource{file_label, {}});
    auto doc = ConfigNode::parse(text, source);
    return build_scenario(doc.yaml(), source, overrides, true);
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides) {
    return load_scenario_text(read_text_file(path), path, overrides);
}

}  // namespace dtsim
