#include "int8_quantization.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace dtsim::runtime {

std::size_t int8_message_bytes(std::size_t count) { return sizeof(float) + count; }

void quantize_int8(const float* values, std::size_t count, unsigned char* message) {
    float largest = 0;
    for (std::size_t i = 0; i < count; ++i) largest = std::max(largest, std::abs(values[i]));
    const float scale = largest > 0 ? largest / 127.0f : 1.0f;
    std::memcpy(message, &scale, sizeof scale);
    for (std::size_t i = 0; i < count; ++i) {
        const auto q = static_cast<std::int8_t>(std::clamp(std::nearbyint(values[i] / scale), -127.0f, 127.0f));
        std::memcpy(message + sizeof scale + i, &q, 1);
    }
}

void dequantize_int8(const unsigned char* message, std::size_t count, float* out, bool accumulate) {
    float scale = 0;
    std::memcpy(&scale, message, sizeof scale);
    for (std::size_t i = 0; i < count; ++i) {
        std::int8_t q = 0;
        std::memcpy(&q, message + sizeof scale + i, 1);
        const float value = static_cast<float>(q) * scale;
        out[i] = accumulate ? out[i] + value : value;
    }
}

}  // namespace dtsim::runtime
