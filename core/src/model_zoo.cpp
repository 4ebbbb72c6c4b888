#include "dtsim/model_zoo.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <memory>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/sum_over.hpp"
#include "hf_config.hpp"

namespace dtsim {

double ZooModel::total_parameters() const { return sum_over(layers, &ZooLayer::params); }
double ZooModel::forward_flops_per_sample() const { return sum_over(layers, &ZooLayer::forward_flops_per_sample); }

namespace {

TransformerConfig read_transformer(const ConfigNode& node) {
    node.require_map_with_keys({"architecture", "layers", "hidden", "heads", "kv_heads", "ffn", "vocabulary", "positions",
                                "sequence_length", "experts", "top_k"});
    TransformerConfig c;
    c.architecture = node.choice("architecture", {"gpt", "llama"});
    c.layers = static_cast<int>(node.integer("layers", 1, 100000));
    c.hidden = static_cast<int>(node.integer("hidden", 1, 1 << 20));
    c.heads = static_cast<int>(node.integer("heads", 1, 1 << 16));
    c.kv_heads = static_cast<int>(node.integer("kv_heads", 1, c.heads));
    c.ffn = static_cast<int>(node.integer("ffn", 1, 1 << 22));
    c.vocabulary = static_cast<int>(node.integer("vocabulary", 1, 1 << 24));
    if (node.has("positions")) c.positions = static_cast<int>(node.integer("positions", 0, 1 << 24));
    c.sequence_length = static_cast<int>(node.integer("sequence_length", 1, 1 << 24));
    if (node.has("experts")) c.experts = static_cast<int>(node.integer("experts", 1, 4096));
    if (node.has("top_k")) c.top_k = static_cast<int>(node.integer("top_k", 1, c.experts));
    if (c.heads % c.kv_heads != 0) node.fail("kv_heads", "must divide heads (" + std::to_string(c.heads) + ")");
    return c;
}

constexpr const char* kCnnKernelKeys[] = {"input", "channels", "window", "epilogue"};

// A CNN layer written with its input, shape and epilogue runs as kernels (convolution_kernels); all or none.
std::vector<Kernel> read_cnn_kernels(const ConfigNode& node, const ZooLayer& layer) {
    for (const auto* key : kCnnKernelKeys)
        if (!node.has(key))
            node.fail(key, "expected with 'input', 'channels', 'window' and 'epilogue' (a CNN layer's kernels)");
    std::vector<Epilogue> epilogue;
    for (const auto& item : node.child("epilogue").sequence()) epilogue.push_back(item.choice("", kEpilogueNames));
    const ConvolutionShape shape{node.number("channels", 1, std::max(1.0, layer.activations_per_sample)),
                                 node.number("window", 1, 1e6)};
    // The depth (input channels × window) is the FLOPs per output element over 2; a window longer than it
    // leaves no input channel.
    if (const double depth = layer.forward_flops_per_sample / (2 * layer.activations_per_sample); shape.window > depth) {
        char bound[32];
        std::snprintf(bound, sizeof bound, "%g", depth);
        node.fail("window", std::string("expected at most the product's depth, flops / (2 × activations) = ") + bound);
    }
    return convolution_kernels(layer.forward_flops_per_sample, layer.params, node.number("input", 0, 1e15),
                               layer.activations_per_sample, shape, epilogue);
}

ZooModel read_zoo_file(const std::filesystem::path& path) {
    auto doc = ConfigNode::parse_file(path.string());
    doc.require_map_with_keys({"name", "description", "source", "sample", "published_parameters", "transformer", "layers"});
    ZooModel model;
    model.file = path.string();
    model.name = doc.text("name");
    model.description = doc.text("description");
    model.source = doc.text("source");
    model.sample = doc.text("sample");
    model.published_parameters = doc.number("published_parameters", 1, 1e15);
    for (const auto& node : doc.child("layers").sequence()) {
        node.require_map_with_keys({"name", "params", "flops", "activations", "input", "channels", "window", "epilogue"});
        ZooLayer layer{node.text("name"), node.number("params", 0, 1e13), node.number("flops", 0, 1e18),
                       node.number("activations", 0, 1e15)};
        if (std::any_of(std::begin(kCnnKernelKeys), std::end(kCnnKernelKeys), [&](const char* key) { return node.has(key); }))
            layer.kernels = read_cnn_kernels(node, layer);
        model.layers.push_back(std::move(layer));
    }
    if (model.layers.empty()) doc.fail("layers", "expected at least one layer");
    if (doc.has("transformer")) model.transformer = read_transformer(doc.child("transformer"));
    return model;
}

}  // namespace

ZooModel load_zoo_model(const std::string& name, const std::string& where) {
    // Sweeps and their validation load the same model once per point: read each file once per process.
    static std::mutex mutex;
    static std::map<std::string, ZooModel> loaded;
    const std::lock_guard lock(mutex);
    if (auto found = loaded.find(name); found != loaded.end()) return found->second;
    return loaded.emplace(name, read_zoo_file(require_data_file("models", name, "zoo model", where))).first->second;
}

bool names_model_file(const std::string& value) {
    const std::filesystem::path path(value);
    const auto extension = path.extension();
    return !path.parent_path().empty() || extension == ".yaml" || extension == ".yml" || extension == ".json";
}

ZooModel load_model(const std::string& value, const std::string& base_file, const std::string& where) {
    if (!names_model_file(value)) return load_zoo_model(value, where);
    std::filesystem::path path(value);
    std::error_code ignored;
    if (path.is_relative() && !base_file.empty()) {
        const auto beside = std::filesystem::path(base_file).parent_path() / path;
        if (std::filesystem::exists(beside, ignored)) path = beside.lexically_normal();
    }
    if (!std::filesystem::exists(path, ignored))
        throw InputError(where + ": no such model file '" + value +
                         "'; expected a zoo name, a model file in the zoo's format (.yaml) or a Hugging Face config.json");
    // Files are read every time: unlike the zoo's, they may change between two loads of one process. An
    // error names the key that chose the file as well as the file's own line and key.
    try {
        return path.extension() == ".json" ? read_hf_config(path) : read_zoo_file(path);
    } catch (const InputError& e) {
        throw InputError(where + ": in the model file: " + e.what());
    }
}

}  // namespace dtsim
