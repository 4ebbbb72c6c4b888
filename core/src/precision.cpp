#include "dtsim/precision.hpp"

namespace dtsim {

std::string_view to_string(Precision precision) {
    switch (precision) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    }
    return "?";
}

std::optional<Precision> precision_from_string(std::string_view text) {
    for (auto p : {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16})
        if (to_string(p) == text) return p;
    return std::nullopt;
}

double bytes_per_element(Precision precision) {
    // TF32 is a math mode over fp32 storage: gradients stay 4 bytes.
    return (precision == Precision::fp16 || precision == Precision::bf16) ? 2.0 : 4.0;
}

}  // namespace dtsim
