#include "dtsim/calibrate/calibration_ops.hpp"

namespace dtsim::calibrate {

std::string_view to_string(const CalibrationOp& op) {
    return std::visit([](auto value) { return to_string(value); }, op);
}

std::vector<std::string_view> calibration_op_names() {
    auto names = kNetworkOpNames.names();
    for (auto name : kComputeOpNames.names()) names.push_back(name);
    return names;
}

std::optional<CalibrationOp> parse_calibration_op(std::string_view text) {
    if (auto network = kNetworkOpNames.parse(text)) return *network;
    if (auto compute = kComputeOpNames.parse(text)) return *compute;
    return std::nullopt;
}

}  // namespace dtsim::calibrate
