#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "dtsim/name_table.hpp"

namespace dtsim {

enum class Precision { fp32, tf32, fp16, bf16 };
inline constexpr auto kPrecisionNames =
    make_name_table(std::pair{Precision::fp32, "fp32"}, std::pair{Precision::tf32, "tf32"},
                    std::pair{Precision::fp16, "fp16"}, std::pair{Precision::bf16, "bf16"});

constexpr std::string_view to_string(Precision precision) { return kPrecisionNames.name(precision); }
constexpr std::optional<Precision> precision_from_string(std::string_view text) { return kPrecisionNames.parse(text); }
/// Bytes per gradient element communicated for a model trained in this precision.
double bytes_per_element(Precision precision);
/// Whether weights and activations are 16-bit (mixed-precision training, fp32 master weights aside).
/// TF32 is a math mode of fp32 training: its tensors stay 4 bytes.
bool is_mixed_precision(Precision precision);

}  // namespace dtsim
