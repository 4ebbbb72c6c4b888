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
QWidget* make_kind_legend(QWidget* parent);
/// The swatches of an LLM layout's communication dimensions and pipeline bubbles (hidden until a run has one).
QWidget* make_dimension_legend(QWidget* parent);
/// "run 3 — resnet50 (predicted), allreduce/ring, 16 GPUs, iteration 120 ms"
QString describe_run(const Run& run);

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    void show_run(std::shared_ptr<const LoadedRun> run);
    TimelineWidget* timeline() const { return timeline_; }

private:
    QLabel* title_;
    QWidget* dimension_legend_;
    QLineEdit* filter_;
    TimelineWidget* timeline_;
    QLabel* totals_;
    std::shared_ptr<const LoadedRun> run_;
};

}  // namespace dtsim::gui
