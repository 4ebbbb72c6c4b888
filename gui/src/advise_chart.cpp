#include "advise_chart.hpp"

#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>

#include "kind_palette.hpp"

namespace dtsim::gui {
namespace {

constexpr double kHour = 3600;

QPointF position(const AdvisePoint& p) { return {*p.cost_usd, p.time_to_train_s / kHour}; }

// A padded range around the values, from 0 where they are close to it, with round ticks.
QValueAxis* value_axis(const QString& title, double low, double high) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    const double pad = std::max({high - low, high * 0.05, 1e-6}) * 0.1;
    axis->setRange(std::max(0.0, low - pad), high + pad);
    axis->applyNiceNumbers();
    axis->setLabelFormat(axis->max() < 10 ? QStringLiteral("%.2f") : QStringLiteral("%.0f"));
    return axis;
}

}  // namespace

AdviseChart advise_chart(const AdviseResult& result) {
    AdviseChart out;
    out.chart = new QChart;
    out.chart->setTitle(QStringLiteral("Time-to-train against cost, one point per configuration"));
    out.chart->legend()->hide();  // the view's legend names every option whole
    out.points.resize(result.options.size());
    std::vector<QPointF> frontier;
    double min_x = 1e300, max_x = 0, min_y = 1e300, max_y = 0;
    for (size_t i = 0; i < result.points.size(); ++i) {
        const auto& p = result.points[i];
        if (!p.cost_usd) {
            ++out.unpriced;
            continue;
        }
        out.points[p.option].push_back(i);
        const auto at = position(p);
        min_x = std::min(min_x, at.x()), max_x = std::max(max_x, at.x());
        min_y = std::min(min_y, at.y()), max_y = std::max(max_y, at.y());
        if (p.pareto) frontier.push_back(at);
    }
    if (min_x > max_x) {  // nothing to draw: the axes still show
        min_x = min_y = 0;
        max_x = max_y = 1;
    }
    auto* x = value_axis(QStringLiteral("cost ($)"), min_x, max_x);
    auto* y = value_axis(QStringLiteral("time-to-train (hours)"), min_y, max_y);
    out.chart->addAxis(x, Qt::AlignBottom);
    out.chart->addAxis(y, Qt::AlignLeft);
    auto add = [&](QXYSeries* series) {
        out.chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    };
    std::sort(frontier.begin(), frontier.end(), [](const QPointF& a, const QPointF& b) { return a.x() != b.x() ? a.x() < b.x() : a.y() > b.y(); });
    auto* line = new QLineSeries;
    line->setName(QStringLiteral("Pareto frontier"));
    line->setPen(QPen(Qt::darkGray, 1.5, Qt::DashLine));
    for (const auto& at : frontier) line->append(at);
    add(line);
    // Rings under the options' markers: the frontier stays visible where it is one point and the line is not.
    out.frontier = new QScatterSeries;
    out.frontier->setName(QStringLiteral("Pareto frontier"));
    out.frontier->setColor(Qt::transparent);
    out.frontier->setPen(QPen(Qt::darkGray, 2));
    out.frontier->setMarkerSize(22);
    for (const auto& at : frontier) out.frontier->append(at);
    add(out.frontier);
    for (size_t option = 0; option < result.options.size(); ++option) {
        auto* markers = new QScatterSeries;
        markers->setName(QString::fromStdString(result.options[option]));
        markers->setColor(QColor::fromRgb(series_rgb(option)));
        markers->setBorderColor(Qt::white);
        markers->setMarkerSize(12);
        for (size_t i : out.points[option]) markers->append(position(result.points[i]));
        add(markers);
        out.options.push_back(markers);
    }
    return out;
}

std::vector<LegendEntry> advise_legend(const AdviseResult& result) {
    std::vector<LegendEntry> entries;
    for (size_t option = 0; option < result.options.size(); ++option)
        entries.push_back({QColor::fromRgb(series_rgb(option)), QStringLiteral("●"), QString::fromStdString(result.options[option])});
    entries.push_back({QColor(Qt::darkGray), QStringLiteral("○ - -"), QStringLiteral("Pareto frontier")});
    return entries;
}

}  // namespace dtsim::gui
