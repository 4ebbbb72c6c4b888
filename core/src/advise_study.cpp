#include "dtsim/advise_study.hpp"

#include <yaml-cpp/yaml.h>

#include "dtsim/config_node.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {
namespace {

TrainingTarget read_target(const ConfigNode& node) {
    node.require_map_with_keys({"tokens", "samples", "iterations"});
    const int given = (node.has("tokens") ? 1 : 0) + (node.has("samples") ? 1 : 0) + (node.has("iterations") ? 1 : 0);
    if (given != 1) node.fail("", "expected exactly one of tokens, samples or iterations");
    TrainingTarget target;
    if (node.has("tokens")) target = {TrainingTarget::Kind::tokens, node.number("tokens", 1, 1e18)};
    if (node.has("samples")) target = {TrainingTarget::Kind::samples, node.number("samples", 1, 1e15)};
    if (node.has("iterations")) target = {TrainingTarget::Kind::iterations, static_cast<double>(node.integer("iterations", 1, 1LL << 40))};
    return target;
}

std::map<PlanKey, std::vector<std::string>> read_search(const ConfigNode& node) {
    std::map<PlanKey, std::vector<std::string>> search;
    if (!node.is_map()) node.fail("", "expected a mapping of search keys (" + kPlanKeyNames.choices() + ") to lists of values");
    for (const auto& entry : node.yaml()) {
        const auto key = entry.first.as<std::string>();
        std::string values;
        const auto& list = entry.second;
        if (list.IsSequence())
            for (const auto& v : list) values += (values.empty() ? "" : ",") + v.as<std::string>();
        else if (list.IsScalar())
            values = list.Scalar();
        try {
            auto [plan_key, allowed] = parse_search_option(key + "=" + values);
            search[plan_key] = allowed;
        } catch (const InputError& e) {
            std::string reason = e.what();
            reason = reason.substr(reason.find("': ") + 3);
            node.fail(key, reason);
        }
    }
    return search;
}

bool tiered(Topology topology) { return topology != Topology::star; }

AdviseOption read_option(const ConfigNode& node, const YAML::Node& scenario, const std::string& study_name, const HardwareCosts& study_costs,
                         const std::string& path) {
    node.require_map_with_keys({"name", "cluster", "costs"});
    AdviseOption option;
    option.name = node.text("name");
    YAML::Node text = YAML::Clone(scenario);
    text["name"] = study_name + "-" + option.name;
    text["cluster"] = YAML::Clone(node.child("cluster").yaml());
    YAML::Emitter out;
    out << text;
    option.scenario_text = out.c_str();
    Scenario loaded;
    try {
        loaded = load_scenario_text(option.scenario_text, path + " (option '" + option.name + "')");
    } catch (const InputError& e) {
        node.fail("cluster", std::string("gives a scenario that does not load: ") + e.what());
    }
    const auto& cluster = loaded.cluster;
    option.parts.gpus = cluster.gpus();
    option.parts.nics = cluster.nodes * cluster.nics_per_node;
    option.parts.switch_ports = switch_ports(option.parts.nics, tiered(cluster.fabric.topology), cluster.fabric.oversubscription);
    option.costs = load_hardware_costs(cluster.gpu.name, cluster.nic.preset).overridden_by(study_costs);
    if (node.has("costs")) option.costs = option.costs.overridden_by(read_hardware_costs(node.child("costs")));
    option.global_batch = loaded.global_batch();
    option.tokens_per_sequence = loaded.training.llm ? loaded.training.llm->sequence_length : 0;
    if (option.tokens_per_sequence == 0) node.fail("cluster", "gives a scenario without an LLM layout: advise plans transformers from the zoo");
    return option;
}

}  // namespace

AdviseStudy load_advise_study(const std::string& path) {
    const auto doc = ConfigNode::parse_file(path);
    doc.require_map_with_keys({"name", "description", "scenario", "target", "search", "simulate", "margin", "costs", "options"});
    AdviseStudy study;
    study.name = doc.text("name");
    if (doc.has("description")) study.description = doc.text("description");
    study.target = read_target(doc.child("target"));
    if (doc.has("search")) study.search = read_search(doc.child("search"));
    if (doc.has("simulate")) study.simulate = static_cast<int>(doc.integer("simulate", 1, 10000));
    if (doc.has("margin")) study.margin = doc.number("margin", 0, 100);
    const HardwareCosts study_costs = doc.has("costs") ? read_hardware_costs(doc.child("costs")) : HardwareCosts{};
    const auto scenario = doc.child("scenario");
    scenario.require_map_with_keys({"description", "profile", "model", "training", "seed"});
    const auto options = doc.child("options").sequence();
    if (options.empty()) doc.fail("options", "expected at least one cluster option");
    for (const auto& option : options) {
        study.options.push_back(read_option(option, scenario.yaml(), study.name, study_costs, path));
        for (size_t i = 0; i + 1 < study.options.size(); ++i)
            if (study.options[i].name == study.options.back().name) option.fail("name", "'" + study.options.back().name + "' names another option too");
    }
    return study;
}

}  // namespace dtsim
