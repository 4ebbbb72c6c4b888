#include "hardware_choices.hpp"

#include <set>

#include "dtsim/data_paths.hpp"
#include "dtsim/hardware.hpp"

namespace dtsim::gui {

std::vector<std::string> gpu_choices() { return list_data_names("hardware/gpu"); }

std::vector<std::string> nic_choices() {
    std::set<std::string> gpu_links;
    for (const auto& name : gpu_choices()) {
        const auto gpu = load_gpu_preset(name, "data/hardware/gpu");
        gpu_links.insert({gpu.intra_node, gpu.host_link});
    }
    auto names = list_data_names("hardware/network");
    std::erase_if(names, [&](const std::string& name) { return gpu_links.count(name) > 0; });
    return names;
}

std::vector<std::string> model_choices() { return list_data_names("models"); }

std::vector<std::string> profile_choices() { return list_data_names("profiles", ".json"); }

}  // namespace dtsim::gui
