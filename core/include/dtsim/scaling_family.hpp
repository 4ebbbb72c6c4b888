#pragma once
// Which runs form one scaling series (the GUI's speedup view): runs of a scenario that differ only in the
// cluster's size.
#include <string>

namespace dtsim {

/// Runs of one scaling series share this key: their scenario with the scale keys (cluster.nodes,
/// cluster.gpus_per_node) removed, so a sweep over the cluster size gives one series per other setting.
std::string scaling_family(const std::string& scenario_name, const std::string& scenario_text);

}  // namespace dtsim
