#pragma once
// What one calibration sample times: a network operation (network_ops.hpp) or a compute one.
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "dtsim/name_table.hpp"
#include "dtsim/network_ops.hpp"

namespace dtsim::calibrate {

/// gemm: a matrix product; memory_bandwidth: a STREAM-triad-like pass; launch_latency: an empty kernel;
/// host_to_device, device_to_host: copies (GPUs); codec: a gradient-compression kernel (codec_kernel.hpp).
enum class ComputeOp { gemm, memory_bandwidth, launch_latency, host_to_device, device_to_host, codec };

inline constexpr auto kComputeOpNames = make_name_table(
    std::pair{ComputeOp::gemm, "gemm"}, std::pair{ComputeOp::memory_bandwidth, "memory_bandwidth"},
    std::pair{ComputeOp::launch_latency, "launch_latency"}, std::pair{ComputeOp::host_to_device, "host_to_device"},
    std::pair{ComputeOp::device_to_host, "device_to_host"}, std::pair{ComputeOp::codec, "codec"});

constexpr std::string_view to_string(ComputeOp op) { return kComputeOpNames.name(op); }

using CalibrationOp = std::variant<NetworkOp, ComputeOp>;

std::string_view to_string(const CalibrationOp& op);
/// The network ops' names, then the compute ops'.
std::vector<std::string_view> calibration_op_names();
std::optional<CalibrationOp> parse_calibration_op(std::string_view text);
inline bool is_network(const CalibrationOp& op) { return std::holds_alternative<NetworkOp>(op); }

}  // namespace dtsim::calibrate
