#include "section_overrides.hpp"

#include <algorithm>
#include <iterator>
#include <yaml-cpp/yaml.h>

namespace dtsim::gui {
namespace {

// The file's node at `section`.`key` (no key: the section itself); a null node where it is not written.
YAML::Node written(const std::string& scenario_file, const char* section, const char* key = nullptr) {
    try {
        const YAML::Node root = YAML::LoadFile(scenario_file);
        if (!root.IsMap() || !root[section].IsDefined()) return {};
        const YAML::Node node = root[section];
        if (!key) return node;
        return node.IsMap() && node[key].IsDefined() ? YAML::Node(node[key]) : YAML::Node();
    } catch (const YAML::Exception&) {
        return {};  // dtsim itself reports an unreadable scenario, with file and line
    }
}

std::string flow_text(const YAML::Node& node) {
    YAML::Emitter out;
    out << YAML::Flow << node;
    return out.c_str();
}

}  // namespace

std::vector<std::string> nic_overrides(const NicKnobs& k, const std::string& scenario_file) {
    if (!k.preset && !k.count && !k.bandwidth) return {};
    const YAML::Node nic = written(scenario_file, "cluster", "nic");
    if (k.preset || nic.IsScalar()) {
        // The written bandwidth or latency were the old kind's: the section is replaced, keeping the count.
        if (k.preset && !k.count && !k.bandwidth) return {"cluster.nic=" + *k.preset};  // dtsim keeps a written count
        YAML::Node section(YAML::NodeType::Map);
        section["preset"] = k.preset ? *k.preset : nic.Scalar();
        if (k.count) section["count"] = *k.count;
        else if (nic.IsMap() && nic["count"].IsDefined()) section["count"] = nic["count"];
        if (k.bandwidth) section["bandwidth"] = *k.bandwidth;
        return {"cluster.nic=" + flow_text(section)};
    }
    // A mapping, or no NIC written (a node preset's, or a profile's): only the keys asked for change.
    std::vector<std::string> out;
    if (k.count) out.push_back("cluster.nic.count=" + std::to_string(*k.count));
    if (k.bandwidth) out.push_back("cluster.nic.bandwidth=" + *k.bandwidth);
    return out;
}

std::optional<std::string> model_override(const std::optional<std::string>& zoo_name, const std::string& scenario_file) {
    if (!zoo_name) return std::nullopt;
    static const std::string kOldModelKeys[] = {"gradient_bytes", "forward_time", "backward_time", "layers", "single_gpu_step_time"};
    const YAML::Node model = written(scenario_file, "model");
    const auto old_model_key = [](const std::string& key) { return std::find(std::begin(kOldModelKeys), std::end(kOldModelKeys), key) != std::end(kOldModelKeys); };
    bool has_old_keys = false;
    YAML::Node kept(YAML::NodeType::Map);
    if (model.IsMap())
        for (const auto& entry : model) {
            const auto key = entry.first.as<std::string>();
            if (old_model_key(key)) has_old_keys = true;
            else kept[key] = entry.second;
        }
    if (!has_old_keys) return "model.zoo=" + *zoo_name;
    kept["zoo"] = *zoo_name;
    return "model=" + flow_text(kept);
}

}  // namespace dtsim::gui
