#pragma once
// IEEE 754 binary16 ("fp16") as bits, for gradient compression: the cast from fp32 rounds to nearest,
// ties to even, as CUDA's __float2half_rn does; the cast back is exact.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtsim::runtime {

std::uint16_t to_half(float value);
float from_half(std::uint16_t bits);

void encode_half(const std::vector<float>& values, std::vector<std::uint16_t>& out);
void decode_half(const std::vector<std::uint16_t>& bits, std::vector<float>& out);

/// target[i] = fp16(fp32(target[i]) + fp32(incoming[i])): the all-reduce's fp16 sum, rounded as to_half
/// rounds. With the CPU's F16C conversions where it has them (8 elements at a time), so that a measured
/// fp16 all-reduce reduces at memory speed, as a GPU does, rather than at the speed of software casts.
void add_halves(std::uint16_t* target, const std::uint16_t* incoming, std::size_t count);

}  // namespace dtsim::runtime
