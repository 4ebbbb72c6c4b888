#include "dtsim/run_comparison.hpp"

#include <yaml-cpp/yaml.h>

#include <limits>

namespace dtsim {

double PhaseComparison::relative_error() const {
    if (measured_s == 0) return predicted_s == 0 ? 0 : std::numeric_limits<double>::infinity();
    return (predicted_s - measured_s) / measured_s;
}

std::vector<PhaseComparison> compare_phases(const RunSummary& predicted, const RunSummary& measured) {
    return {{"iteration", predicted.iteration_time_s, measured.iteration_time_s},
            {"compute", predicted.compute_time_s, measured.compute_time_s},
            {"communication", predicted.comm_time_s, measured.comm_time_s},
            {"exposed communication", predicted.exposed_comm_time_s, measured.exposed_comm_time_s},
            {"wait", predicted.wait_time_s, measured.wait_time_s}};
}

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
