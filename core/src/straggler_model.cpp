#include "dtsim/straggler_model.hpp"

#include <random>

namespace dtsim {
namespace {

// SplitMix64 (Steele, Lea, Flood 2014): spreads (seed, rank, iteration) into well-mixed generator seeds.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

ComputeEffect compute_effect(const Scenario& scenario, int rank, int iteration) {
    const auto& spec = scenario.training.stragglers;
    ComputeEffect effect;
    if (!spec.any()) return effect;
    if (!spec.slowdown.empty()) effect.factor = spec.slowdown[static_cast<size_t>(rank)];
    std::mt19937_64 random(mix(mix(scenario.seed) ^ mix(static_cast<std::uint64_t>(rank) << 32 | static_cast<std::uint32_t>(iteration))));
    const auto& jitter = spec.jitter;
    switch (jitter.kind) {
        case JitterKind::none: break;
        case JitterKind::lognormal: effect.factor *= std::lognormal_distribution<double>(0.0, jitter.sigma)(random); break;
        case JitterKind::exponential: effect.extra_s = std::exponential_distribution<double>(1.0 / jitter.mean_s)(random); break;
        case JitterKind::empirical: {
            std::uniform_int_distribution<size_t> pick(0, jitter.values.size() - 1);
            effect.factor *= jitter.values[pick(random)];
            break;
        }
    }
    if (spec.pause.probability > 0 && std::bernoulli_distribution(spec.pause.probability)(random))
        effect.pause_s = spec.pause.duration_s;
    return effect;
}

}  // namespace dtsim
