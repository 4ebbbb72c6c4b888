#include "dtsim/model_zoo.hpp"

#include <algorithm>
#include <memory>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"

namespace dtsim {

double ZooModel::total_parameters() const {
    double total = 0;
    for (const auto& layer : layers) total += layer.params;
    return total;
}

double ZooModel::forward_flops_per_sample() const {
    double total = 0;
    for (const auto& layer : layers) total += layer.forward_flops_per_sample;
    return total;
}

ZooModel load_zoo_model(const std::string& name, const std::string& where) {
    auto names = list_data_names("models");
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        auto hint = closest_match(name, names);
        throw InputError(where + ": unknown zoo model '" + name + "'" +
                         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; the zoo has: " + known);
    }
    auto path = data_dir() / "models" / (name + ".yaml");
    auto source = std::make_shared<DocumentSource>(DocumentSource{path.string(), {}});
    auto doc = ConfigNode::parse(read_text_file(path), source);
    doc.require_map_with_keys({"name", "description", "source", "sample", "published_parameters", "layers"});
    ZooModel model;
    model.name = doc.text("name");
    model.description = doc.text("description");
    model.source = doc.text("source");
    model.sample = doc.text("sample");
    model.published_parameters = doc.number("published_parameters", 1, 1e15);
    for (const auto& layer : doc.child("layers").sequence()) {
        layer.require_map_with_keys({"name", "params", "flops", "activations"});
        model.layers.push_back(ZooLayer{layer.text("name"), layer.number("params", 0, 1e13),
                                        layer.number("flops", 0, 1e18), layer.number("activations", 0, 1e15)});
    }
    if (model.layers.empty()) doc.fail("layers", "expected at least one layer");
    return model;
}

}  // namespace dtsim
