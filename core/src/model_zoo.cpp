#include "dtsim/model_zoo.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <memory>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/sum_over.hpp"

namespace dtsim {

double ZooModel::total_parameters() const { return sum_over(layers, &ZooLayer::params); }
double ZooModel::forward_flops_per_sample() const { return sum_over(layers, &ZooLayer::forward_flops_per_sample); }

namespace {

ZooModel read_zoo_model(const std::string& name, const std::string& where) {
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

}  // namespace

ZooModel load_zoo_model(const std::string& name, const std::string& where) {
    // Sweeps and their validation load the same model once per point: read each file once per process.
    static std::mutex mutex;
    static std::map<std::string, ZooModel> loaded;
    const std::lock_guard lock(mutex);
    if (auto found = loaded.find(name); found != loaded.end()) return found->second;
    return loaded.emplace(name, read_zoo_model(name, where)).first->second;
}

}  // namespace dtsim
