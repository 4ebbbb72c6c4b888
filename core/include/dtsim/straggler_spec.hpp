#pragma once
// `training.stragglers`: workers slower than the rest, per-iteration jitter and transient pauses. All
// random draws come from the scenario's seed, so a run is reproducible and another seed gives others.
#include <string>
#include <vector>

#include "dtsim/fault_spec.hpp"
#include "dtsim/name_table.hpp"

namespace dtsim {

class ConfigNode;
struct ClusterSpec;

enum class JitterKind { none, lognormal, exponential, empirical };
// `none` is the absence of a jitter section, not a distribution a scenario names.
inline constexpr auto kJitterDistributionNames =
    make_name_table(std::pair{JitterKind::lognormal, "lognormal"}, std::pair{JitterKind::exponential, "exponential"},
                    std::pair{JitterKind::empirical, "empirical"});

struct JitterSpec {
    JitterKind kind = JitterKind::none;
    double sigma = 0;            // lognormal: compute time × exp(N(0, sigma)) (median 1)
    double mean_s = 0;           // exponential: an extra delay with this mean, each iteration
    std::vector<double> values;  // empirical: compute time × one of these, uniformly
};

struct PauseSpec {
    double probability = 0;  // per rank and iteration
    double duration_s = 0;
};

struct StragglerSpec {
    std::vector<double> slowdown;  // per GPU rank: compute time factor (1 = nominal); empty = none
    JitterSpec jitter;
    PauseSpec pause;
    std::vector<LinkDegradationSpec> link_degradation;
    NodeFailureSpec node_failure;
    /// Whether anything changes a rank's compute (faults do not).
    bool any() const { return !slowdown.empty() || jitter.kind != JitterKind::none || pause.probability > 0; }
};

/// Reads `training.stragglers` (the node is that mapping):
///   slowdown: [{ranks: [3], factor: 2}, {nodes: [1], factor: 1.5}]
///   jitter: {distribution: lognormal, sigma: 0.1} | {distribution: exponential, mean: 2ms}
///         | {distribution: empirical, values: [1.0, 1.0, 1.3]}
///   pause: {probability: 0.01, duration: 200ms}
///   link_degradation: [...], node_failure: {...}   (fault_spec.hpp)
StragglerSpec read_stragglers(const ConfigNode& node, const ClusterSpec& cluster);

}  // namespace dtsim
