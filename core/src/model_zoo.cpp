#include "dtsim/model_zoo.hpp"

#include <algorithm>
#include <memory>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/sum_over.hpp"

namespace dtsim {

double ZooModel::total_parameters() const { return sum_over(layers, &ZooLayer::params); }
double ZooModel::forward_flops_per_sample() const { return sum_over(layers, &ZooLayer::forward_flops_per_sample); }

ZooModel load_zoo_model(const std::string& name, const std::string& where) {
    const auto path = require_data_file("models", name, "zoo model", where);
    auto doc = ConfigNode::parse_file(path.string());
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
