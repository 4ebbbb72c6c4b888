#include "dtsim/straggler_spec.hpp"

#include "dtsim/config_node.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {
namespace {

constexpr double kMaxSlowdown = 1000;

// Every listed rank (or every rank of every listed node) gets the entry's factor.
void read_slowdown(const ConfigNode& list, const ClusterSpec& cluster, std::vector<double>& slowdown) {
    slowdown.assign(static_cast<size_t>(cluster.gpus()), 1.0);
    for (const auto& entry : list.sequence()) {
        entry.require_map_with_keys({"ranks", "nodes", "factor"});
        const double factor = entry.number("factor", 0.01, kMaxSlowdown);
        if (entry.has("ranks") == entry.has("nodes")) entry.fail("ranks", "give either ranks or nodes for each slowdown");
        const bool by_rank = entry.has("ranks");
        const auto members = entry.child(by_rank ? "ranks" : "nodes");
        const long long limit = by_rank ? cluster.gpus() - 1 : cluster.nodes - 1;
        for (const auto& member : members.sequence()) {
            if (!member.yaml().IsScalar()) member.fail("", "expected a rank or node number");
            long long index = 0;
            try {
                index = member.yaml().as<long long>();
            } catch (const YAML::Exception&) {
                member.fail("", "expected a rank or node number");
            }
            if (index < 0 || index > limit)
                member.fail("", "expected a " + std::string(by_rank ? "rank" : "node") + " from 0 to " + std::to_string(limit));
            if (by_rank)
                slowdown[static_cast<size_t>(index)] = factor;
            else
                for (int g = 0; g < cluster.gpus_per_node; ++g)
                    slowdown[static_cast<size_t>(index * cluster.gpus_per_node + g)] = factor;
        }
    }
}

JitterSpec read_jitter(const ConfigNode& node) {
    JitterSpec jitter;
    jitter.kind = node.choice("distribution", kJitterDistributionNames);
    if (jitter.kind == JitterKind::lognormal) {
        node.require_map_with_keys({"distribution", "sigma"});
        jitter.sigma = node.number("sigma", 0, 5);
    } else if (jitter.kind == JitterKind::exponential) {
        node.require_map_with_keys({"distribution", "mean"});
        jitter.mean_s = node.seconds("mean");
        if (jitter.mean_s <= 0) node.fail("mean", "must be a positive duration such as 2ms");
    } else {
        node.require_map_with_keys({"distribution", "values"});
        const auto values = node.child("values");
        for (const auto& value : values.sequence()) {
            if (!value.yaml().IsScalar()) value.fail("", "expected a compute time factor such as 1.2");
            double factor = 0;
            try {
                factor = value.yaml().as<double>();
            } catch (const YAML::Exception&) {
                value.fail("", "expected a compute time factor such as 1.2");
            }
            if (!(factor >= 0.01 && factor <= kMaxSlowdown)) value.fail("", "expected a factor from 0.01 to 1000");
            jitter.values.push_back(factor);
        }
        if (jitter.values.empty()) node.fail("values", "expected a non-empty list of compute time factors");
    }
    return jitter;
}

}  // namespace

StragglerSpec read_stragglers(const ConfigNode& node, const ClusterSpec& cluster) {
    node.require_map_with_keys({"slowdown", "jitter", "pause", "link_degradation", "node_failure"});
    StragglerSpec spec;
    if (node.has("slowdown")) read_slowdown(node.child("slowdown"), cluster, spec.slowdown);
    if (node.has("jitter")) spec.jitter = read_jitter(node.child("jitter"));
    if (node.has("pause")) {
        const auto pause = node.child("pause");
        pause.require_map_with_keys({"probability", "duration"});
        spec.pause.probability = pause.number("probability", 0, 1);
        spec.pause.duration_s = pause.seconds("duration");
        if (spec.pause.duration_s <= 0) pause.fail("duration", "must be a positive duration such as 200ms");
    }
    if (node.has("link_degradation")) spec.link_degradation = read_link_degradation(node.child("link_degradation"), cluster);
    if (node.has("node_failure")) spec.node_failure = read_node_failure(node.child("node_failure"), cluster);
    return spec;
}

}  // namespace dtsim
