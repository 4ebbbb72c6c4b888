#include "dtsim/compression_spec.hpp"

#include "dtsim/config_node.hpp"
#include "dtsim/precision.hpp"

namespace dtsim {

std::string to_string(CompressionKind kind) {
    switch (kind) {
        case CompressionKind::none: return "none";
        case CompressionKind::fp16: return "fp16";
        case CompressionKind::int8: return "int8";
        case CompressionKind::topk: return "topk";
        case CompressionKind::powersgd: return "powersgd";
    }
    return "none";
}

CompressionSpec read_compression(const ConfigNode& node, Precision precision) {
    CompressionSpec spec;
    const auto kind = node.choice("kind", {"none", "fp16", "int8", "topk", "powersgd"});
    if (kind == "none") {
        node.require_map_with_keys({"kind"});
    } else if (kind == "fp16" || kind == "int8") {
        node.require_map_with_keys({"kind"});
        spec.kind = kind == "fp16" ? CompressionKind::fp16 : CompressionKind::int8;
        if (spec.kind == CompressionKind::fp16 && bytes_per_element(precision) <= 2)
            node.fail("kind", "fp16 compression does not shrink " + std::string(to_string(precision)) +
                                  " gradients; use int8, topk or powersgd");
    } else if (kind == "topk") {
        node.require_map_with_keys({"kind", "ratio", "error_feedback"});
        spec.kind = CompressionKind::topk;
        spec.ratio = node.number("ratio", 1e-6, 1);
    } else {
        node.require_map_with_keys({"kind", "rank", "error_feedback"});
        spec.kind = CompressionKind::powersgd;
        spec.rank = static_cast<int>(node.integer("rank", 1, 1024));
    }
    if (node.has("error_feedback")) spec.error_feedback = node.boolean("error_feedback");
    return spec;
}

}  // namespace dtsim
