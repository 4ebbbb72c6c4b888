#pragma once
// The timeline tab: a title, the legend, the lane filter, the timeline itself and the selection's totals.
#include <QWidget>
#include <memory>

#include "run_database.hpp"

class QLabel;
class QLineEdit;

namespace dtsim::gui {

class TimelineWidget;

/// A row of coloured swatches naming the span kinds.
QWidget* makeKindLegend(QWidget* parent);
/// "run 3 — resnet50 (predicted), allreduce/ring, 16 GPUs, iteration 120 ms"
QString describeRun(const Run& run);

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void showRun(std::shared_ptr<const LoadedRun> run);
    TimelineWidget* timeline() const { return m_timeline; }
    QLineEdit* laneFilter() const { return m_filter; }

private:
    QLabel* m_title;
    QLineEdit* m_filter;
    TimelineWidget* m_timeline;
    QLabel* m_totals;
    std::shared_ptr<const LoadedRun> m_run;
};

}  // namespace dtsim::gui
