#include "llm_gradients.hpp"

namespace dtsim::runtime {

GradientBuckets gradient_buckets(const LlmCosts& costs, int stage, int stages, int chunks, double bucket_bytes) {
    GradientBuckets buckets;
    for (int chunk = 0; chunk < chunks; ++chunk) {
        const auto& layers = costs.virtual_stages[static_cast<std::size_t>(stage + chunk * stages)];
        auto& ready = buckets.emplace_back(layers.size());
        GradientBucket open[] = {{LayoutGroup::data, 0}, {LayoutGroup::expert_data, 0}};
        for (std::size_t i = layers.size(); i-- > 0;) {
            auto& bucket = open[layers[i].expert ? 1 : 0];
            bucket.bytes += static_cast<std::size_t>(layers[i].gradient_bytes);
            if (static_cast<double>(bucket.bytes) < bucket_bytes) continue;
            ready[i].push_back(bucket);
            bucket.bytes = 0;
        }
        for (const auto& rest : open)
            if (rest.bytes > 0 && !ready.empty()) ready.front().push_back(rest);
    }
    return buckets;
}

}  // namespace dtsim::runtime
