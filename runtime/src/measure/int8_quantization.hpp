#pragma once
// int8 quantization with one scale per message: q = round(x / s) with s = max|x| / 127, so every value
// comes back within s / 2 (half a quantization step) of what was sent. The message is the fp32 scale
// followed by one signed byte per value.
#include <cstddef>
#include <vector>

namespace dtsim::runtime {

/// Bytes of the message for `count` values.
std::size_t int8_message_bytes(std::size_t count);
void quantize_int8(const float* values, std::size_t count, unsigned char* message);
/// Adds (accumulate) or writes the message's values into `out`.
void dequantize_int8(const unsigned char* message, std::size_t count, float* out, bool accumulate);

}  // namespace dtsim::runtime
