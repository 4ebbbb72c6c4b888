#include "dtsim/nccl_calibration.hpp"

#include <algorithm>

#include "dtsim/nccl_call_costs.hpp"

namespace dtsim {

namespace {

// Weighted sums of one protocol's measurements for the least squares of y = a L + b B, weights 1/t^2.
struct Sums {
    double ll = 0, lb = 0, bb = 0, ly = 0, by = 0;
    int count = 0;
    int bandwidth_weighed = 0;  // measurements whose modelled bytes' time is a third of the modelled call or more
    void add(double latency, double bytes_time, double excess, double weight) {
        ll += weight * latency * latency;
        lb += weight * latency * bytes_time;
        bb += weight * bytes_time * bytes_time;
        ly += weight * latency * excess;
        by += weight * bytes_time * excess;
        ++count;
        bandwidth_weighed += 3 * bytes_time >= latency + bytes_time;
    }
};

// The latency factor alone, the bytes' time taken at `b`.
double latency_factor(const Sums& s, double b) { return s.ll > 0 ? std::max(0.0, (s.ly - b * s.lb) / s.ll) : 1; }

}  // namespace

NcclCalibration calibrate_nccl(const NcclParameters& published, const std::vector<NcclMeasurement>& measured, double launch_s) {
    NcclParameters unscaled = published;
    unscaled.latency_scale = unscaled.bandwidth_scale = {1, 1, 1};
    std::array<Sums, 3> sums{};
    for (const auto& m : measured) {
        if (m.seconds <= 0) continue;
        const auto choice = choose_nccl(unscaled, m.call, {});
        const auto charged = nccl_call_costs(unscaled, m.call, choice, m.channels, std::nullopt);
        sums[nccl_protocol_index(choice.protocol)].add(charged.latency_s, charged.fill_s + charged.bottleneck_s,
                                                       m.seconds - launch_s - m.route_latency_s, 1 / (m.seconds * m.seconds));
    }
    NcclCalibration result;
    result.parameters = unscaled;
    for (size_t p = 0; p < 3; ++p) {
        const auto& s = sums[p];
        result.measurements[p] = s.count;
        if (s.count == 0) continue;
        double a = latency_factor(s, 1), b = 1;
        const double determinant = s.ll * s.bb - s.lb * s.lb;
        if (s.bandwidth_weighed >= 2 && determinant > 1e-9 * s.ll * s.bb) {
            a = (s.ly * s.bb - s.by * s.lb) / determinant;
            b = (s.by * s.ll - s.ly * s.lb) / determinant;
            if (a < 0) {  // a latency is never negative: the bytes' time alone
                a = 0;
                b = s.by / s.bb;
            }
            result.bandwidth_fitted[p] = b > 0;
            if (b <= 0) {
                b = 1;
                a = latency_factor(s, 1);
            }
        }
        result.parameters.latency_scale[p] = a;
        result.parameters.bandwidth_scale[p] = b;
    }
    return result;
}

}  // namespace dtsim
