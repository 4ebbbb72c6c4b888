#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace dtsim {

enum class Precision { fp32, tf32, fp16, bf16 };

std::string_view to_string(Precision precision);
std::optional<Precision> precision_from_string(std::string_view text);
/// Bytes per gradient element communicated for a model trained in this precision.
double bytes_per_element(Precision precision);

}  // namespace dtsim
