#include "speedup_view.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <functional>

#include "dtsim/utf8_text.hpp"
#include "kind_palette.hpp"
#include "series_legend.hpp"

namespace dtsim::gui {
namespace {

using Metric = std::function<double(const RunSummary&)>;

QLogValueAxis* gpu_axis(int max_gpus) {
    auto* axis = new QLogValueAxis;
    axis->setBase(2);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setTitleText(QStringLiteral("GPUs"));
    axis->setRange(0.8, std::max(2, max_gpus) * 1.25);
    axis->setMinorTickCount(0);
    return axis;
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

// One chart of `metric` against GPUs: a line per predicted series, markers for measured runs.
QChart* metric_chart(const QString& title, const QString& y_title, const std::vector<ScalingSeries>& series, const Metric& metric,
                    bool log_y, const Metric& ideal) {
    auto* chart = new QChart;
    chart->setTitle(title);
    int max_gpus = 1;
    double max_y = 0;
    double min_positive_y = 1;  // a log axis shows no zero: a speedup below 1 still has to be on it
    for (const auto& s : series)
        for (const auto* points : {&s.predicted, &s.measured})
            for (const auto& p : *points) {
                max_gpus = std::max(max_gpus, p.gpus);
                const double y = metric(p.summary);
                max_y = std::max(max_y, y);
                if (y > 0) min_positive_y = std::min(min_positive_y, y);
            }
    auto* x = gpu_axis(max_gpus);
    QAbstractAxis* y;
    if (log_y) {
        auto* axis = new QLogValueAxis;
        axis->setBase(2);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setRange(min_positive_y * 0.8, std::max(2.0, std::max(max_y, static_cast<double>(max_gpus))) * 1.25);
        axis->setMinorTickCount(0);
        y = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, std::max(1.0, max_y) * 1.1);
        axis->applyNiceNumbers();
        axis->setLabelFormat(QStringLiteral("%.0f"));
        y = axis;
    }
    y->setTitleText(y_title);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* ideal_line = new QLineSeries;
    ideal_line->setName(QStringLiteral("ideal"));
    ideal_line->setPen(QPen(Qt::gray, 1.5, Qt::DashLine));
    for (int g = 1; g <= max_gpus; g *= 2) ideal_line->append(g, ideal(RunSummary{.gpus = g}));
    attach(chart, ideal_line, x, y);
    for (size_t i = 0; i < series.size(); ++i) {
        const QColor colour = QColor::fromRgb(series_rgb(i));
        const QString name = QString::fromStdString(series[i].label);
        if (!series[i].predicted.empty()) {
            auto* line = new QLineSeries;
            line->setName(name + QStringLiteral(" (predicted)"));
            line->setPen(QPen(colour, 2));
            line->setPointsVisible(true);
            for (const auto& p : series[i].predicted) line->append(p.gpus, metric(p.summary));
            attach(chart, line, x, y);
        }
        if (!series[i].measured.empty()) {
            auto* markers = new QScatterSeries;
            markers->setName(name + QStringLiteral(" (measured)"));
            markers->setColor(colour);
            markers->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            markers->setMarkerSize(11);
            for (const auto& p : series[i].measured) markers->append(p.gpus, metric(p.summary));
            attach(chart, markers, x, y);
        }
    }
    chart->legend()->hide();  // Qt Charts elides names that do not fit: the view's series legend has them whole
    return chart;
}

// Per point of one series: compute, exposed communication and wait per iteration, stacked.
QChart* breakdown_chart(const ScalingSeries& series) {
    auto* chart = new QChart;
    chart->setTitle(QStringLiteral("Iteration time breakdown, ms per iteration — %1").arg(QString::fromStdString(series.label)));
    const auto& points = series.predicted.empty() ? series.measured : series.predicted;
    const std::array<Metric, 3> parts{[](const RunSummary& s) { return s.compute_time_s; },
                                      [](const RunSummary& s) { return s.exposed_comm_time_s; },
                                      [](const RunSummary& s) { return s.wait_time_s; }};
    const std::array<QString, 3> names{QStringLiteral("compute"), QStringLiteral("exposed communication"), QStringLiteral("wait")};
    auto* bars = new QStackedBarSeries;
    QStringList categories;
    double max_total = 0;
    for (const auto& p : points) {
        categories << QString::number(p.gpus);
        max_total = std::max(max_total, (p.summary.compute_time_s + p.summary.exposed_comm_time_s + p.summary.wait_time_s) * 1e3);
    }
    for (size_t k = 0; k < parts.size(); ++k) {
        auto* set = new QBarSet(names[k]);
        set->setColor(QColor::fromRgb(kKindRgb[k]));
        for (const auto& p : points) set->append(parts[k](p.summary) * 1e3);
        bars->append(set);
    }
    chart->addSeries(bars);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(QStringLiteral("GPUs"));
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("ms"));  // a longer title is cut to the plot's height
    y->setRange(0, std::max(1e-3, max_total) * 1.1);
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignRight);  // beside the bars, which keep the chart's height
    return chart;
}

// The legend of the speedup and efficiency charts, whose series are the same.
std::vector<LegendEntry> series_legend(const std::vector<ScalingSeries>& series) {
    std::vector<LegendEntry> entries{{QColor(Qt::gray), QStringLiteral("- -"), QStringLiteral("ideal")}};
    for (size_t i = 0; i < series.size(); ++i) {
        const QColor colour = QColor::fromRgb(series_rgb(i));
        const QString name = QString::fromStdString(series[i].label);
        if (!series[i].predicted.empty()) entries.push_back({colour, QStringLiteral("—●—"), name + QStringLiteral(" (predicted)")});
        if (!series[i].measured.empty()) entries.push_back({colour, QStringLiteral("■"), name + QStringLiteral(" (measured)")});
    }
    return entries;
}

QChartView* chart_view(QWidget* parent, const QString& name) {
    auto* view = new QChartView(parent);
    view->setObjectName(name);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 240);
    return view;
}

void replace_chart(QChartView* view, QChart* chart) {
    QChart* old = view->chart();
    view->setChart(chart);
    delete old;
}

}  // namespace

SpeedupView::SpeedupView(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), legend_(new SeriesLegend(this)), speedup_(chart_view(this, QStringLiteral("speedup"))),
      efficiency_(chart_view(this, QStringLiteral("efficiency"))), breakdown_(chart_view(this, QStringLiteral("breakdown"))) {
    legend_->setObjectName(QStringLiteral("series_legend"));
    auto* layout = new QGridLayout(this);
    layout->addWidget(title_, 0, 0, 1, 2);
    layout->addWidget(speedup_, 1, 0);
    layout->addWidget(efficiency_, 1, 1);
    layout->addWidget(legend_, 2, 0, 1, 2);
    layout->addWidget(breakdown_, 3, 0, 1, 2);
    layout->setRowStretch(1, 3);
    layout->setRowStretch(3, 2);
    clear();
}

void SpeedupView::clear() {
    title_->setText(tr("Select a run: its scenario's scaling series appear here"));
    legend_->set_entries({});
    replace_chart(speedup_, new QChart);
    replace_chart(efficiency_, new QChart);
    replace_chart(breakdown_, new QChart);
}

void SpeedupView::show_scenario(const std::vector<RunListEntry>& runs, const RunListEntry& selected) {
    const auto series = scaling_series(runs, selected.scenario_name);
    title_->setText(tr("Scaling of %1: %2 series (lines: predicted, squares: measured)")
                         .arg(QString::fromStdString(printable_text(selected.scenario_name)))
                         .arg(series.size()));
    legend_->set_entries(series_legend(series));
    replace_chart(speedup_, metric_chart(tr("Speedup"), tr("speedup"), series, [](const RunSummary& s) { return s.speedup; }, true,
                                        [](const RunSummary& s) { return static_cast<double>(s.gpus); }));
    replace_chart(efficiency_,
                 metric_chart(tr("Scaling efficiency"), tr("efficiency (%)"), series,
                             [](const RunSummary& s) { return s.scaling_efficiency * 100; }, false, [](const RunSummary&) { return 100.0; }));
    const auto own = std::find_if(series.begin(), series.end(), [&](const ScalingSeries& s) { return s.contains(selected.id); });
    replace_chart(breakdown_, own == series.end() ? new QChart : breakdown_chart(*own));
}

}  // namespace dtsim::gui
