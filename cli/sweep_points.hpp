#pragma once
// The points of a sweep: the cross product of the varied keys' values, from --vary or the scenario's
// `sweep:` section.
#include <string>
#include <utility>
#include <vector>

#include "dtsim/scenario.hpp"

namespace dtsim::cli {

using SweepPoint = std::vector<std::pair<std::string, std::string>>;  // (dotted key, YAML value)

/// Parses "key=v1,v2,..."; commas inside brackets or braces do not split, so
/// "training.strategy={kind: allreduce},{kind: parameter-server, servers: 4}" gives two values.
SweepAxis parse_vary_option(const std::string& text);

std::vector<SweepPoint> expand_sweep(const std::vector<SweepAxis>& axes);

std::vector<std::string> as_overrides(const SweepPoint& point);

}  // namespace dtsim::cli
