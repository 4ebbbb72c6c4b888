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

/// Each distinct warning of a sweep's points once, in the order first given, with the points (numbered from
/// 1) that give it: "TEXT (points 1-3, 5)", or "TEXT (every point)". `warnings[i]` are point i's.
std::vector<std::string> sweep_warnings(const std::vector<std::vector<std::string>>& warnings);

}  // namespace dtsim::cli
