#pragma once
// `training.compression`: how gradients are compressed before they are communicated.
#include <string>

#include "dtsim/name_table.hpp"

namespace dtsim {

class ConfigNode;
enum class Precision;

enum class CompressionKind { none, fp16, int8, topk, powersgd };
inline constexpr auto kCompressionKindNames = make_name_table(
    std::pair{CompressionKind::none, "none"}, std::pair{CompressionKind::fp16, "fp16"},
    std::pair{CompressionKind::int8, "int8"}, std::pair{CompressionKind::topk, "topk"},
    std::pair{CompressionKind::powersgd, "powersgd"});
inline std::string to_string(CompressionKind kind) { return std::string(kCompressionKindNames.name(kind)); }

struct CompressionSpec {
    CompressionKind kind = CompressionKind::none;
    double ratio = 1;  // topk: fraction of the elements kept
    int rank = 4;      // powersgd: rank of the low-rank factors
    bool error_feedback = true;  // topk and powersgd: keep the residual (modelled as its memory traffic)
};

/// Reads `training.compression` ({kind: topk, ratio: 0.01} ...); `precision` is the model's, since a
/// compression that does not shrink its gradients (fp16 of fp16) is refused.
CompressionSpec read_compression(const ConfigNode& node, Precision precision);

}  // namespace dtsim
