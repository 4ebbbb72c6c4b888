#include "dtsim/sim/compression.hpp"

#include <cmath>

namespace dtsim::sim {

namespace {
constexpr double kIndexBytes = 4;  // int32 element index of a top-k entry
constexpr double kScaleBytes = 4;  // fp32 scale of an int8-quantised bucket
constexpr double kFp32Bytes = 4;   // the calibrated codec kernels take fp32 gradients

// The calibrated top-k decode summed `blocks` blocks of ratio·N pairs; here `ranks` blocks of this
// scenario's ratio. Its size term is scaled by the bytes the decode touches per element (pairs read,
// fp32 value written), as in the memory-bound model: exact when the settings match the calibration's.
double topk_decode_s(const CodecFit& fit, double fp32_bytes, double ranks, double ratio) {
    constexpr double kPairBytes = kFp32Bytes + kIndexBytes;
    const double calibrated = fit.blocks * fit.ratio * kPairBytes + kFp32Bytes;
    const double here = ranks * ratio * kPairBytes + kFp32Bytes;
    return fit.fixed_s + fp32_bytes / fit.bytes_per_second * here / calibrated;
}

// The bucket's codec passes done whole: encode before the exchange, decode after it.
CompressedBucket whole_bucket(const Scenario& scenario, const CostModel& costs, double bucket_bytes) {
    const auto& spec = scenario.training.compression;
    const auto& compute = costs.compute();
    const double e = bytes_per_element(scenario.model.precision);
    const double n = bucket_bytes / e;
    const double memory = compute.memory_bytes_per_second;
    const double ranks = scenario.cluster.gpus();
    const double feedback_s = spec.error_feedback ? 4 * bucket_bytes / memory : 0;
    const double fp32_bytes = n * kFp32Bytes;
    // A profile's fitted kernel when it has one (its encode/decode for the bucket's fp32 bytes; PowerSGD's at the
    // scenario's rank, powersgd_codec_seconds: linear in the rank between the calibrated ones), else the estimate.
    auto fitted = [&](CodecKernel kernel, double estimate_s) {
        if (is_powersgd(kernel)) return powersgd_codec_seconds(compute.codecs, kernel, fp32_bytes, spec.rank).value_or(estimate_s);
        const CodecFit* fit = find_codec_fit(compute.codecs, kernel);
        return fit ? fit->seconds(fp32_bytes) : estimate_s;
    };
    CompressedBucket out;
    switch (spec.kind) {
        case CompressionKind::none: out.first_bytes = bucket_bytes; break;
        case CompressionKind::fp16:
            out.first_bytes = 2 * n;
            out.encode_s = fitted(CodecKernel::fp16_encode, n * (e + 2) / memory);
            out.decode_s = fitted(CodecKernel::fp16_decode, n * (2 + e) / memory);
            break;
        case CompressionKind::int8:
            out.first_bytes = n + kScaleBytes;
            out.encode_s = fitted(CodecKernel::int8_encode, (bucket_bytes + n * (e + 1)) / memory);
            out.decode_s = fitted(CodecKernel::int8_decode, n * (1 + e) / memory);
            break;
        case CompressionKind::topk: {
            const double kept = std::ceil(spec.ratio * n);
            out.first_bytes = kept * (e + kIndexBytes);
            out.sparse = true;
            // The calibration selects without error feedback: its residual pass stays memory-bound.
            out.encode_s = fitted(CodecKernel::topk_encode, (2 * bucket_bytes + out.first_bytes) / memory) + feedback_s;
            const CodecFit* decode = find_codec_fit(compute.codecs, CodecKernel::topk_decode);
            out.decode_s = decode ? topk_decode_s(*decode, fp32_bytes, ranks, spec.ratio)
                                  : (ranks * out.first_bytes + bucket_bytes) / memory;
            break;
        }
        case CompressionKind::powersgd: {
            const double m = std::ceil(std::sqrt(n));
            const double r = spec.rank;
            out.first_bytes = m * r * e;
            out.second_bytes = m * r * e;
            // Without a calibration: two m×m by m×R products and a Gram-Schmidt of m×R to encode, one m×R by R×m
            // product to decode, at the GEMM rate.
            out.encode_s = fitted(CodecKernel::powersgd_encode, (4 * m * m * r + 2 * m * r * r) / compute.flops_per_second) +
                           feedback_s;
            out.decode_s = fitted(CodecKernel::powersgd_decode, 2 * m * m * r / compute.flops_per_second);
            break;
        }
    }
    return out;
}

}  // namespace

CompressedBucket compress_bucket(const Scenario& scenario, const CostModel& costs, double bucket_bytes) {
    auto out = whole_bucket(scenario, costs, bucket_bytes);
    if (scenario.training.compression.kind != CompressionKind::int8) return out;
    // int8 sums cannot stay int8: the all-reduce quantizes inside, as the measured runs' ring does
    // (runtime/src/measure/ring_allreduce.cpp). Each reduce-scatter step quantizes the chunk it sends and
    // dequantizes the one it receives into its sum; the complete chunk is quantized once and kept rounded;
    // each all-gather step dequantizes the chunk it receives. Per rank: `ranks` quantizations and
    // 2·ranks - 1 dequantizations of 1/ranks of the bucket, each costing what a pass over a chunk costs.
    const double ranks = scenario.cluster.gpus();
    if (ranks < 2) return out;
    const auto chunk = whole_bucket(scenario, costs, bucket_bytes / ranks);
    out.encode_s = ranks * chunk.encode_s;
    out.decode_s = (2 * ranks - 1) * chunk.decode_s;
    out.coded_in_ring = true;
    return out;
}

ServerExchange compress_for_servers(const Scenario& scenario, const CostModel& costs, double bucket_bytes) {
    const auto bucket = whole_bucket(scenario, costs, bucket_bytes);
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
