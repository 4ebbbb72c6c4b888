#pragma once
// The what-if panel's choices of hardware, model and profile, read from the data folder through the
// core's lists (data/hardware, data/models, data/profiles), so that a preset added there shows up. Qt-free.
#include <string>
#include <vector>

namespace dtsim::gui {

std::vector<std::string> gpu_choices();
/// Network presets that are not a GPU's own link (NVLink, PCIe, shared memory): what a node's NICs can be.
std::vector<std::string> nic_choices();
std::vector<std::string> model_choices();
/// Shipped profiles by name (`profile: NAME`).
std::vector<std::string> profile_choices();

}  // namespace dtsim::gui
