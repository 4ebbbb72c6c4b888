#include "dtsim/nccl_calibration.hpp"

#include <algorithm>

#include "dtsim/nccl_call_costs.hpp"

namespace dtsim {

NcclLatencyCalibration calibrate_nccl_latencies(const NcclParameters& published, const std::vector<NcclMeasurement>& measured,
                                                double launch_s) {
    // Minimise sum ((factor L + rest - t) / t)^2 over each protocol's calls: factor = sum (t - rest) L / t^2 / sum L^2 / t^2.
    std::array<double, 3> products{}, squares{};
    NcclLatencyCalibration result;
    result.parameters = published;
    result.parameters.latency_scale = {1, 1, 1};
    for (const auto& m : measured) {
        if (m.seconds <= 0) continue;
        const auto choice = choose_nccl(result.parameters, m.call, {});
        const auto charged = nccl_call_costs(result.parameters, m.call, choice, m.channels, std::nullopt);
        const double excess = m.seconds - launch_s - m.route_latency_s - charged.fill_s - charged.bottleneck_s;
        const size_t p = nccl_protocol_index(choice.protocol);
        products[p] += excess * charged.latency_s / (m.seconds * m.seconds);
        squares[p] += charged.latency_s * charged.latency_s / (m.seconds * m.seconds);
        ++result.measurements[p];
    }
    for (size_t p = 0; p < 3; ++p)
        if (squares[p] > 0) result.parameters.latency_scale[p] = std::max(0.0, products[p] / squares[p]);
    return result;
}

}  // namespace dtsim
