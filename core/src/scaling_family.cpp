#include "dtsim/scaling_family.hpp"

#include <yaml-cpp/yaml.h>

namespace dtsim {

std::string scaling_family(const std::string& scenario_name, const std::string& scenario_text) {
    YAML::Node root;
    try {
        root = YAML::Load(scenario_text);
    } catch (const YAML::Exception&) {
        return scenario_name;  // no readable scenario (e.g. an imported measurement): group by name
    }
    if (!root.IsMap()) return scenario_name;
    if (root["cluster"] && root["cluster"].IsMap()) {
        root["cluster"].remove("nodes");
        root["cluster"].remove("gpus_per_node");
    }
    YAML::Emitter out;
    out << root;
    return scenario_name + "\n" + out.c_str();
}

}  // namespace dtsim
