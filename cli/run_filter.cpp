#include "run_filter.hpp"

#include <yaml-cpp/yaml.h>

#include "dtsim/input_error.hpp"

namespace dtsim::cli {
namespace {

// The scalar at a dotted key of the stored scenario text; empty when there is none. Covers keys the file
// set itself, which the run's overrides do not list.
std::string scenario_value(const std::string& scenario_text, const std::string& key) {
    try {
        YAML::Node node = YAML::Load(scenario_text);
        size_t start = 0;
        while (node && node.IsMap()) {
            const auto dot = key.find('.', start);
            node = node[key.substr(start, dot - start)];
            if (dot == std::string::npos) return node && node.IsScalar() ? node.Scalar() : "";
            start = dot + 1;
        }
    } catch (const YAML::Exception&) {  // a damaged row matches nothing
    }
    return "";
}

}  // namespace

RunCondition parse_run_condition(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
        throw InputError("command line: --where '" + text + "': expected KEY=VALUE, e.g. --where cluster.nodes=8");
    return {text.substr(0, equals), text.substr(equals + 1)};
}

std::string overrides_text(const std::map<std::string, std::string>& overrides) {
    std::string text;
    for (const auto& [key, value] : overrides) text += (text.empty() ? "" : ", ") + key + "=" + value;
    return text;
}

bool matches(const RunListEntry& run, const RunCondition& condition) {
    if (condition.key == "label") return run.label == condition.value;
    if (const auto overridden = run.overrides.find(condition.key); overridden != run.overrides.end())
        return overridden->second == condition.value;
    return scenario_value(run.scenario_text, condition.key) == condition.value;
}

}  // namespace dtsim::cli
