#pragma once
// Values that are valid but most likely a mistake: a size written without its unit is bytes (`bucket: 25`
// is 25 bytes), and a batch can be larger than the GPU holds. The scenario still runs; the CLI prints these.
#include <string>
#include <vector>

#include "dtsim/config_node.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

/// Smaller buckets are implausible: every bucket costs a collective's latency, and frameworks use MBs.
inline constexpr double kSmallestPlausibleBucketBytes = 64 * 1024;

/// One located line per implausible value of a loaded scenario.
std::vector<std::string> implausible_values(const ConfigNode& doc, const Scenario& scenario);

}  // namespace dtsim
