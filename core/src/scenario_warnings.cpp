#include "scenario_warnings.hpp"

#include "dtsim/memory_model.hpp"
#include "dtsim/units.hpp"

namespace dtsim {

std::vector<std::string> implausible_values(const ConfigNode& doc, const Scenario& scenario) {
    std::vector<std::string> warnings;
    const auto strategy = doc.child("training").child("strategy");
    const double bucket = scenario.training.strategy.bucket_bytes;
    if (strategy.has("bucket") && bucket < kSmallestPlausibleBucketBytes)
        warnings.push_back(strategy.where("bucket") + ": " + format_bytes(bucket) +
                           " is an implausibly small bucket (under 64 KiB); a size without a unit is bytes, write e.g. 25MB");
    const auto memory = estimate_memory(scenario);
    if (!memory.fits()) {
        const auto model = doc.child("model");
        const auto key = model.has("micro_batch") ? "micro_batch" : "batch_per_gpu";
        warnings.push_back(model.where(key) + ": the memory estimate " + describe_fit(memory.peak(), memory.capacity) +
                           " (" + scenario.cluster.gpu.name + "); the simulation assumes it does");
    }
    return warnings;
}

}  // namespace dtsim
