#include "dtsim/compression_spec.hpp"

#include "dtsim/config_node.hpp"
#include "dtsim/precision.hpp"

namespace dtsim {

CompressionSpec read_compression(const ConfigNode& node, Precision precision) {
    CompressionSpec spec;
    spec.kind = node.choice("kind", kCompressionKindNames);
    if (spec.kind == CompressionKind::none) {
        node.require_map_with_keys({"kind"});
    } else if (spec.kind == CompressionKind::fp16 || spec.kind == CompressionKind::int8) {
        node.require_map_with_keys({"kind"});
        if (spec.kind == CompressionKind::fp16 && bytes_per_element(precision) <= 2)
            node.fail("kind", "fp16 compression does not shrink " + std::string(to_string(precision)) +
                                  " gradients; use int8, topk or powersgd");
    } else if (spec.kind == CompressionKind::topk) {
        node.require_map_with_keys({"kind", "ratio", "error_feedback"});
        spec.ratio = node.number("ratio", 1e-6, 1);
    } else {
        node.require_map_with_keys({"kind", "rank", "error_feedback"});
        spec.rank = static_cast<int>(node.integer("rank", 1, 1024));
    }
    if (node.has("error_feedback")) spec.error_feedback = node.boolean("error_feedback");
    return spec;
}

}  // namespace dtsim
