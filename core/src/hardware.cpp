#include "dtsim/hardware.hpp"

#include <map>
#include <memory>
#include <mutex>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim {
namespace {

// `dtsim plan` and sweeps load the same presets once per configuration: each file is parsed once per process.
ConfigNode open_preset(const std::string& kind, const std::string& name, const std::string& where) {
    static std::mutex mutex;
    static std::map<std::string, ConfigNode> parsed;
    const auto path = require_data_file("hardware/" + kind, name, kind + " preset", where).string();
    const std::lock_guard lock(mutex);
    if (const auto found = parsed.find(path); found != parsed.end()) return found->second;
    return parsed.emplace(path, ConfigNode::parse_file(path)).first->second;
}

}  // namespace

double GpuPreset::peak_for(Precision precision, const std::string& where) const {
    auto it = peak_flops_per_second.find(precision);
    if (it == peak_flops_per_second.end())
        throw InputError(where + ": GPU preset '" + name + "' has no " + std::string(to_string(precision)) +
                         " peak; choose another precision or GPU");
    return it->second;
}

GpuPreset load_gpu_preset(const std::string& name, const std::string& where) {
    auto doc = open_preset("gpu", name, where);
    doc.require_map_with_keys({"kind", "name", "description", "basis", "source", "peak", "memory",
                               "memory_bandwidth", "streaming_multiprocessors", "efficiency", "intra_node", "host_link", "collectives"});
    GpuPreset gpu;
    gpu.name = doc.text("name");
    gpu.description = doc.text("description");
    gpu.basis = doc.text("basis");
    auto peak = doc.child("peak");
    peak.require_map_with_keys({"fp32", "tf32", "fp16", "bf16"});
    for (auto p : {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16}) {
        std::string key(to_string(p));
        if (peak.has(key)) gpu.peak_flops_per_second[p] = peak.flops_per_second(key);
    }
    gpu.memory_bytes = doc.bytes("memory");
    gpu.memory_bytes_per_second = doc.bytes_per_second("memory_bandwidth");
    if (doc.has("streaming_multiprocessors"))
        gpu.streaming_multiprocessors = static_cast<int>(doc.integer("streaming_multiprocessors", 1, 100000));
    auto efficiency = doc.child("efficiency");
    efficiency.require_map_with_keys({"gemm", "memory", "attention"});
    gpu.gemm_efficiency = efficiency.number("gemm", 0.01, 1.0);
    gpu.memory_efficiency = efficiency.number("memory", 0.01, 1.0);
    gpu.attention_efficiency = efficiency.number("attention", 0.01, 1.0);
    gpu.intra_node = doc.text("intra_node");
    gpu.host_link = doc.text("host_link");
    gpu.collectives = doc.choice("collectives", kCollectiveLibraryNames);
    return gpu;
}

namespace {

// Speeds fastest first, as NCCL's search tries them.
std::vector<double> read_speeds(const ConfigNode& list) {
    std::vector<double> speeds;
    for (const auto& item : list.sequence()) {
        const double speed = item.bytes_per_second("");
        if (!speeds.empty() && speed >= speeds.back())
            item.fail("", "must be below the speed before it: NCCL's search speeds go fastest first");
        speeds.push_back(speed);
    }
    if (speeds.empty()) list.fail("", "is empty; expected NCCL's search speeds, fastest first");
    return speeds;
}

std::array<double, 2> read_two_and_more_nodes(const ConfigNode& caps, const std::string& key) {
    const auto node = caps.child(key);
    node.require_map_with_keys({"two_nodes", "more_nodes"});
    return {node.bytes_per_second("two_nodes"), node.bytes_per_second("more_nodes")};
}

NcclChannels read_nccl_channels(const ConfigNode& doc) {
    doc.require_map_with_keys({"speeds", "duplicate", "caps", "ring_plateau"});
    NcclChannels channels;
    channels.speeds = read_speeds(doc.child("speeds"));
    const auto duplicate = doc.child("duplicate");
    duplicate.require_map_with_keys({"few", "many"});
    channels.duplicate_few = duplicate.bytes_per_second("few");
    channels.duplicate_many = duplicate.bytes_per_second("many");
    const auto caps = doc.child("caps");
    caps.require_map_with_keys({"tree", "tree_ll128", "ring_ll128", "nvls_tree"});
    channels.tree = read_two_and_more_nodes(caps, "tree");
    channels.tree_ll128 = read_two_and_more_nodes(caps, "tree_ll128");
    channels.ring_ll128 = read_two_and_more_nodes(caps, "ring_ll128");
    channels.nvls_tree = read_two_and_more_nodes(caps, "nvls_tree");
    channels.ring_plateau = doc.number("ring_plateau", 1.0, 4.0);
    return channels;
}

}  // namespace

NetworkPreset load_network_preset(const std::string& name, const std::string& where) {
    auto doc = open_preset("network", name, where);
    doc.require_map_with_keys({"kind", "name", "description", "basis", "source", "bandwidth", "latency", "efficiency",
                                "in_network_reduction", "ll_max_busbw", "nvls_search", "nccl_channels"});
    NetworkPreset net;
    net.name = doc.text("name");
    net.description = doc.text("description");
    net.basis = doc.text("basis");
    net.bytes_per_second = doc.bytes_per_second("bandwidth");
    net.latency_s = doc.seconds("latency", Quantity::latency);
    net.efficiency = doc.number("efficiency", 0.01, 1.0);
    if (doc.has("in_network_reduction")) net.reduction_efficiency = doc.number("in_network_reduction", 0.01, 1.0);
    if (doc.has("ll_max_busbw")) net.ll_max_busbw = doc.bytes_per_second("ll_max_busbw");
    if (doc.has("nvls_search")) {
        if (!doc.has("in_network_reduction")) doc.fail("nvls_search", "scales in_network_reduction, which this preset does not give");
        const auto search = doc.child("nvls_search");
        search.require_map_with_keys({"nvlink_total", "speeds"});
        NvlsSearch nvls{search.bytes_per_second("nvlink_total"), read_speeds(search.child("speeds"))};
        net.nvls_search = std::move(nvls);
    }
    if (doc.has("nccl_channels")) net.nccl_channels = read_nccl_channels(doc.child("nccl_channels"));
    return net;
}

double NvlsSearch::scale(int gpus) const {
    const auto speed = [&](int k) {
        for (double s : speeds)
            if ((k + 1) * s <= nvlink_total) return s;
        return speeds.back();
    };
    return gpus * speed(gpus) / (8 * speed(8));
}

int NcclChannels::search_channels(int nics, double nic_rate) const {
    double speed = speeds.back();
    for (double s : speeds)
        if (s <= nic_rate) {
            speed = s;
            break;
        }
    return speed >= (nics > 4 ? duplicate_many : duplicate_few) ? 2 * nics : nics;
}

NodePreset load_node_preset(const std::string& name, const std::string& where) {
    auto doc = open_preset("node", name, where);
    doc.require_map_with_keys({"kind", "name", "description", "basis", "source", "gpus_per_node", "gpu", "intra_node", "nic"});
    NodePreset node;
    node.name = doc.text("name");
    node.description = doc.text("description");
    node.basis = doc.text("basis");
    node.gpus_per_node = static_cast<int>(doc.integer("gpus_per_node", 1, 1024));
    node.gpu = doc.text("gpu");
    node.intra_node = doc.text("intra_node");
    const auto nic = doc.child("nic");
    nic.require_map_with_keys({"preset", "count"});
    node.nic = nic.text("preset");
    node.nic_count = static_cast<int>(nic.integer("count", 1, node.gpus_per_node));
    if (node.gpus_per_node % node.nic_count != 0) nic.fail("count", "must divide gpus_per_node");
    return node;
}

}  // namespace dtsim
