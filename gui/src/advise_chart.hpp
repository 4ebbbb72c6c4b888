#pragma once
// The Advise view's chart: time-to-train (hours) against cost ($), one marker per simulated configuration,
// a colour per cluster option, and the Pareto frontier as a dashed line through its configurations, each ringed
// (a frontier of one configuration has no line to draw).
#include <QtCharts/QChart>
#include <vector>

#include "advise_result.hpp"
#include "series_legend.hpp"

class QScatterSeries;

namespace dtsim::gui {

struct AdviseChart {
    QChart* chart = nullptr;  // the caller owns it
    std::vector<QScatterSeries*> options;   // one per option, in the result's order
    QScatterSeries* frontier = nullptr;      // a ring around each configuration on the frontier
    std::vector<std::vector<size_t>> points;  // per option: the result's point behind each marker, in order
    int unpriced = 0;                         // configurations left out: their option has no price
};

AdviseChart advise_chart(const AdviseResult& result);

/// One entry per option, then the frontier.
std::vector<LegendEntry> advise_legend(const AdviseResult& result);

}  // namespace dtsim::gui
