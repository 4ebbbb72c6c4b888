#pragma once
// What-if overrides whose form depends on how the scenario file wrote the section: the NIC (a preset
// name, a mapping, or nothing where a node preset or a profile gives it) and the model (a zoo name or
// the direct form). Qt-free.
#include <optional>
#include <string>
#include <vector>

namespace dtsim::gui {

struct NicKnobs {
    std::optional<std::string> preset;     // a network preset: the NICs' kind
    std::optional<int> count;              // NICs per node
    std::optional<std::string> bandwidth;  // "200Gbps"
};

/// A new kind replaces the whole NIC and keeps its count; a count or bandwidth alone changes only that key.
std::vector<std::string> nic_overrides(const NicKnobs& knobs, const std::string& scenario_file);

/// `model.zoo=NAME`, or, where the file gives the direct form or a measured step time (which belong to
/// the model it names), the whole model section without them.
std::optional<std::string> model_override(const std::optional<std::string>& zoo_name, const std::string& scenario_file);

}  // namespace dtsim::gui
