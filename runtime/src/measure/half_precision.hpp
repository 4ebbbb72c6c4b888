#pragma once
// IEEE 754 binary16 ("fp16") as bits, for gradient compression: the cast from fp32 rounds to nearest,
// ties to even, as CUDA's __float2half_rn does; the cast back is exact.
#include <cstdint>
#include <vector>

namespace dtsim::runtime {

std::uint16_t to_half(float value);
float from_half(std::uint16_t bits);

void encode_half(const std::vector<float>& values, std::vector<std::uint16_t>& out);
void decode_half(const std::vector<std::uint16_t>& bits, std::vector<float>& out);

}  // namespace dtsim::runtime
