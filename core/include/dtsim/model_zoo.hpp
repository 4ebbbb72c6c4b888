#pragma once
// The model zoo (data/models/): per-layer parameter counts and forward FLOPs per sample.
#include <string>
#include <vector>

namespace dtsim {

struct ZooLayer {
    std::string name;
    double params = 0;
    double forward_flops_per_sample = 0;
    double activations_per_sample = 0;  // output elements, a memory-traffic estimate
};

struct ZooModel {
    std::string name;
    std::string description;
    std::string source;
    std::string sample;  // what one sample is (an image, a sequence of N tokens)
    double published_parameters = 0;
    std::vector<ZooLayer> layers;  // forward order; backward produces gradients in reverse

    double total_parameters() const;
    double forward_flops_per_sample() const;
};

/// Loads data/models/<name>.yaml; `where` locates the key that named it, for the error message.
ZooModel load_zoo_model(const std::string& name, const std::string& where);

}  // namespace dtsim
