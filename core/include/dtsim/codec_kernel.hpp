#pragma once
// The gradient-compression kernels a calibration times and a profile fits, in plan order.
#include <string_view>

#include "dtsim/name_table.hpp"

namespace dtsim {

enum class CodecKernel { fp16_encode, fp16_decode, int8_encode, int8_decode, topk_encode, topk_decode, powersgd_encode, powersgd_decode };

inline constexpr auto kCodecKernelNames = make_name_table(
    std::pair{CodecKernel::fp16_encode, "fp16_encode"}, std::pair{CodecKernel::fp16_decode, "fp16_decode"},
    std::pair{CodecKernel::int8_encode, "int8_encode"}, std::pair{CodecKernel::int8_decode, "int8_decode"},
    std::pair{CodecKernel::topk_encode, "topk_encode"}, std::pair{CodecKernel::topk_decode, "topk_decode"},
    std::pair{CodecKernel::powersgd_encode, "powersgd_encode"}, std::pair{CodecKernel::powersgd_decode, "powersgd_decode"});

constexpr std::string_view to_string(CodecKernel kernel) { return kCodecKernelNames.name(kernel); }
/// The top-k kernels' cost depends on the fraction kept (a ratio); topk_decode's also on the blocks summed.
constexpr bool is_topk(CodecKernel kernel) { return kernel == CodecKernel::topk_encode || kernel == CodecKernel::topk_decode; }
/// The PowerSGD kernels' cost depends on the rank of the low-rank factors.
constexpr bool is_powersgd(CodecKernel kernel) {
    return kernel == CodecKernel::powersgd_encode || kernel == CodecKernel::powersgd_decode;
}

}  // namespace dtsim
