#pragma once
// Speedup, scaling efficiency and the iteration-time breakdown against GPU count, for every scaling
// series of the selected run's scenario: predicted series as lines, measured runs as markers, the ideal
// line for reference, under one legend that names every series whole. Qt Charts stays behind this
// class (it is deprecated from Qt 6.10).
#include <QWidget>

#include "scaling_series.hpp"

class QChartView;
class QLabel;

namespace dtsim::gui {

class SeriesLegend;

class SpeedupView : public QWidget {
    Q_OBJECT
public:
    explicit SpeedupView(QWidget* parent = nullptr);
    /// Shows the series of `selected`'s scenario; the breakdown shows the series holding `selected`.
    void show_scenario(const std::vector<RunListEntry>& runs, const RunListEntry& selected);
    void clear();

private:
    QLabel* title_;
    SeriesLegend* legend_;  // the series of the speedup and efficiency charts
    QChartView* speedup_;
    QChartView* efficiency_;
    QChartView* breakdown_;
};

}  // namespace dtsim::gui
