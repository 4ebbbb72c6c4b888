#include "scaling_series.hpp"

#include <algorithm>
#include <map>

#include "dtsim/scaling_family.hpp"

namespace dtsim::gui {
namespace {

void keep_latest_per_gpu_count(std::vector<ScalingPoint>& points) {
    std::map<int, ScalingPoint> latest;
    for (const auto& p : points)
        if (auto it = latest.find(p.gpus); it == latest.end() || it->second.run_id < p.run_id) latest[p.gpus] = p;
    points.clear();
    for (const auto& [gpus, p] : latest) points.push_back(p);
}

}  // namespace

bool ScalingSeries::contains(std::int64_t run_id) const {
    auto has = [run_id](const std::vector<ScalingPoint>& points) {
        return std::any_of(points.begin(), points.end(), [run_id](const ScalingPoint& p) { return p.run_id == run_id; });
    };
    return has(predicted) || has(measured);
}

std::vector<ScalingSeries> scaling_series(const std::vector<RunListEntry>& runs, const std::string& scenario_name) {
    std::map<std::string, ScalingSeries> by_family;
    std::vector<std::string> order;  // first appearance, so colours stay put as runs are added
    for (const auto& run : runs) {
        if (run.scenario_name != scenario_name) continue;
        const auto family = scaling_family(run.scenario_name, run.scenario_text);
        auto [it, inserted] = by_family.try_emplace(family);
        if (inserted) {
            it->second.label = run.strategy;
            order.push_back(family);
        }
        auto& points = run.kind == RunKind::measured ? it->second.measured : it->second.predicted;
        points.push_back({run.id, run.gpus, run.summary});
    }
    std::vector<ScalingSeries> series;
    std::map<std::string, int> label_uses;
    for (const auto& family : order) {
        auto& s = by_family[family];
        // Series of one strategy differ in another setting: number them so the legend tells them apart.
        if (const int uses = ++label_uses[s.label]; uses > 1) s.label += " (variant " + std::to_string(uses) + ")";
        keep_latest_per_gpu_count(s.predicted);
        keep_latest_per_gpu_count(s.measured);
        series.push_back(std::move(s));
    }
    return series;
}

}  // namespace dtsim::gui
