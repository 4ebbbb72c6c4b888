#include "dtsim/sim/compression.hpp"

#include <cmath>

namespace dtsim::sim {

namespace {
constexpr double kIndexBytes = 4;  // int32 element index of a top-k entry
constexpr double kScaleBytes = 4;  // fp32 scale of an int8-quantised bucket
}  // namespace

CompressedBucket compress_bucket(const Scenario& scenario, double bucket_bytes) {
    const auto& spec = scenario.training.compression;
    const auto& model = scenario.model;
    const double e = bytes_per_element(model.precision);
    const double n = bucket_bytes / e;
    const double memory = model.memory_bytes_per_second;
    const double ranks = scenario.cluster.gpus();
    const double feedback_s = spec.error_feedback ? 4 * bucket_bytes / memory : 0;
    CompressedBucket out;
    switch (spec.kind) {
        case CompressionKind::none: out.first_bytes = bucket_bytes; break;
        case CompressionKind::fp16:
            out.first_bytes = 2 * n;
            out.encode_s = n * (e + 2) / memory;
            out.decode_s = n * (2 + e) / memory;
            break;
        case CompressionKind::int8:
            out.first_bytes = n + kScaleBytes;
            out.encode_s = (bucket_bytes + n * (e + 1)) / memory;
            out.decode_s = n * (1 + e) / memory;
            break;
        case CompressionKind::topk: {
            const double kept = std::ceil(spec.ratio * n);
            out.first_bytes = kept * (e + kIndexBytes);
            out.sparse = true;
            out.encode_s = (2 * bucket_bytes + out.first_bytes) / memory + feedback_s;
            out.decode_s = (ranks * out.first_bytes + bucket_bytes) / memory;
            break;
        }
        case CompressionKind::powersgd: {
            const double m = std::ceil(std::sqrt(n));
            const double r = spec.rank;
            out.first_bytes = m * r * e;
            out.second_bytes = m * r * e;
            // Two m×m by m×R products and a Gram-Schmidt of m×R; decode one m×R by R×m product.
            out.encode_s = (4 * m * m * r + 2 * m * r * r) / model.flops_per_second + feedback_s;
            out.decode_s = 2 * m * m * r / model.flops_per_second;
            break;
        }
    }
    return out;
}

ServerExchange compress_for_servers(const Scenario& scenario, double bucket_bytes) {
    const auto bucket = compress_bucket(scenario, bucket_bytes);
    ServerExchange out;
    if (bucket_bytes <= 0) return out;
    out.push_fraction = bucket.first_bytes / bucket_bytes;
    out.encode_s = bucket.encode_s;
    if (!bucket.sparse) {  // the server casts the parameters as the workers cast their gradients
        out.pull_fraction = out.push_fraction;
        out.decode_s = bucket.decode_s;
    }
    return out;
}

}  // namespace dtsim::sim
