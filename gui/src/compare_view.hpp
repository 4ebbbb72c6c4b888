#pragma once
// Two runs of one scenario (typically predicted and measured) as aligned timelines sharing one time
// axis, over the per-phase error table.
#include <QWidget>
#include <memory>

#include "run_database.hpp"

class QLabel;

namespace dtsim::gui {

class MetricErrorModel;
class TimelineWidget;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    void show_runs(std::shared_ptr<const LoadedRun> first, std::shared_ptr<const LoadedRun> second);
    TimelineWidget* first() const { return first_; }
    TimelineWidget* second() const { return second_; }
    MetricErrorModel* errors() const { return errors_; }

private:
    QLabel* first_title_;
    QLabel* second_title_;
    QWidget* dimension_legend_;
    TimelineWidget* first_;
    TimelineWidget* second_;
    MetricErrorModel* errors_;
    std::shared_ptr<const LoadedRun> runs_[2];
};

}  // namespace dtsim::gui
