#pragma once
// The points of a sweep: the cross product of the varied keys' values, from --vary or the scenario's
// `sweep:` section.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "dtsim/scenario.hpp"

namespace dtsim::cli {

using SweepPoint = std::vector<std::pair<std::string, std::string>>;  // (dotted key, YAML value)

/// Parses "key=v1,v2,..."; commas inside brackets or braces do not split, so
/// "training.strategy={kind: allreduce},{kind: parameter-server, servers: 4}" gives two values.
SweepAxis parse_vary_option(const std::string& text);

/// A sweep runs at most this many points unless `--max-points` says more: each is checked by loading its
/// scenario before any runs (about a millisecond each) and then simulated.
inline constexpr std::size_t kMaxSweepPoints = 1024;

/// The number of points of the axes' cross product, computed without building them. Throws InputError
/// when there are more than `max_points`; `source` says where the axes come from ("command line: --vary").
std::size_t count_sweep_points(const std::vector<SweepAxis>& axes, std::size_t max_points, const std::string& source);

std::vector<SweepPoint> expand_sweep(const std::vector<SweepAxis>& axes);

std::vector<std::string> as_overrides(const SweepPoint& point);

/// Each distinct warning of a sweep's points once, in the order first given, with the points (numbered from
/// 1) that give it: "TEXT (points 1-3, 5)", or "TEXT (every point)". `warnings[i]` are point i's.
std::vector<std::string> sweep_warnings(const std::vector<std::vector<std::string>>& warnings);

}  // namespace dtsim::cli
