#include "half_precision.hpp"

#include <cmath>
#include <cstring>

namespace dtsim::runtime {

std::uint16_t to_half(float value) {
    std::uint32_t f = 0;
    std::memcpy(&f, &value, sizeof f);
    const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
    const std::uint32_t magnitude = f & 0x7fffffffu;
    if (magnitude >= 0x7f800000u)  // infinity or NaN (NaN stays quiet NaN)
        return static_cast<std::uint16_t>(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0));
    if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds beyond 65504
    if (magnitude < 0x38800000u) {  // below fp16's smallest normal: a subnormal, rounded by the FPU's own rounding
        const float scaled = std::nearbyint(std::fabs(value) * 16777216.0f);  // in units of 2^-24
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(scaled));
    }
    const std::uint32_t exponent = (magnitude >> 23) - 112;  // rebias 127 -> 15
    std::uint32_t mantissa = magnitude & 0x7fffffu;
    std::uint32_t half = (exponent << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // carries into the exponent correctly
    return static_cast<std::uint16_t>(sign | half);
}

float from_half(std::uint16_t bits) {
    const float sign = (bits & 0x8000u) ? -1.0f : 1.0f;
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
    if (exponent == 31) return mantissa ? std::nanf("") : sign * INFINITY;
    return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

void encode_half(const std::vector<float>& values, std::vector<std::uint16_t>& out) {
    out.resize(values.size());
    for (size_t i = 0; i < values.size(); ++i) out[i] = to_half(values[i]);
}

void decode_half(const std::vector<std::uint16_t>& bits, std::vector<float>& out) {
    out.resize(bits.size());
    for (size_t i = 0; i < bits.size(); ++i) out[i] = from_half(bits[i]);
}

}  // namespace dtsim::runtime
