#include "dtsim/incast.hpp"

#include <algorithm>

#include "dtsim/profile.hpp"

namespace dtsim {

double IncastCurve::efficiency(int senders) const {
    if (points.empty() || senders <= 1) return 1;
    int below = 1;
    double below_efficiency = 1;
    for (const auto& [count, value] : points) {
        if (senders <= count) {
            const double share = static_cast<double>(senders - below) / (count - below);
            return below_efficiency + share * (value - below_efficiency);
        }
        below = count;
        below_efficiency = value;
    }
    return below_efficiency;
}

IncastCurve inter_node_incast(const Profile& profile) {
    IncastCurve curve;
    for (const auto& fit : profile.network) {
        if (fit.op != NetworkOp::alltoall || fit.mode != TimingMode::latency || fit.link_class != LinkClass::inter_node || fit.ranks < 3 ||
            fit.nodes != fit.ranks || fit.model.segments.empty())
            continue;
        const auto link = profile.link_cost(LinkClass::inter_node, fit.ranks);
        if (!link) continue;
        // Of a rank's bytes, (g - 1) / g leave it and as many arrive at its port: a perfectly shared port
        // runs the all-to-all at g / (g - 1) times the link's rate.
        const double senders = fit.ranks - 1;
        const double ideal = link->bytes_per_second * fit.ranks / senders;
        const double efficiency = std::min(1.0, fit.model.segments.back().bytes_per_second / ideal);
        curve.points.emplace_back(fit.ranks - 1, efficiency);
    }
    std::sort(curve.points.begin(), curve.points.end());
    return curve;
}

}  // namespace dtsim
