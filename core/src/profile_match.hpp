#pragma once
// A profile prices the hardware it was made on: one of another GPU or node would silently change the
// prediction (an A100 profile on an H100 scenario doubles compute time). Refused unless the scenario says
// `profile_mismatch: allow`.
#include "dtsim/config_node.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

/// Throws an InputError at the scenario's `profile` key naming both sides when the profile's GPU, or the
/// intra-node link or NIC kind it records, differs from the scenario's.
void check_profile_matches(const ConfigNode& doc, const Scenario& scenario);

}  // namespace dtsim
