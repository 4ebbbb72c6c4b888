#include "half_precision.hpp"

#include <immintrin.h>

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
    // Bit by bit rather than through ldexp: the all-reduce's fp16 sums convert every element twice per step.
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    const std::uint32_t mantissa = bits & 0x3ffu;
    std::uint32_t f = 0;
    if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in fp32
        const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
        std::memcpy(&f, &magnitude, sizeof f);
        f |= sign;
    } else if (exponent == 31) {  // infinity, or NaN (kept quiet)
        f = sign | 0x7f800000u | (mantissa ? 0x400000u | (mantissa << 13) : 0);
    } else {
        f = sign | ((exponent + 112) << 23) | (mantissa << 13);  // rebias 15 -> 127
    }
    float value = 0;
    std::memcpy(&value, &f, sizeof value);
    return value;
}

void encode_half(const std::vector<float>& values, std::vector<std::uint16_t>& out) {
    out.resize(values.size());
    for (size_t i = 0; i < values.size(); ++i) out[i] = to_half(values[i]);
}

void decode_half(const std::vector<std::uint16_t>& bits, std::vector<float>& out) {
    out.resize(bits.size());
    for (size_t i = 0; i < bits.size(); ++i) out[i] = from_half(bits[i]);
}

namespace {

void add_halves_portable(std::uint16_t* target, const std::uint16_t* incoming, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) target[i] = to_half(from_half(target[i]) + from_half(incoming[i]));
}

// F16C's conversions round to nearest even and keep subnormals (MXCSR's defaults), as to_half does.
__attribute__((target("avx,f16c"))) void add_halves_f16c(std::uint16_t* target, const std::uint16_t* incoming, std::size_t count) {
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256 a = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(target + i)));
        const __m256 b = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(incoming + i)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(target + i),
                         _mm256_cvtps_ph(_mm256_add_ps(a, b), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    add_halves_portable(target + i, incoming + i, count - i);
}

}  // namespace

void add_halves(std::uint16_t* target, const std::uint16_t* incoming, std::size_t count) {
    static const bool f16c = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
    if (f16c)
        add_halves_f16c(target, incoming, count);
    else
        add_halves_portable(target, incoming, count);
}

}  // namespace dtsim::runtime
