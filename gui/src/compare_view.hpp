#pragma once
// Two runs of one scenario (typically predicted and measured) as aligned timelines sharing one time
// axis, over the per-phase error table.
#include <QWidget>
#include <memory>

#include "run_database.hpp"

class QLabel;

namespace dtsim::gui {

class PhaseErrorModel;
class TimelineWidget;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    void showRuns(std::shared_ptr<const LoadedRun> first, std::shared_ptr<const LoadedRun> second);
    TimelineWidget* first() const { return m_first; }
    TimelineWidget* second() const { return m_second; }
    PhaseErrorModel* errors() const { return m_errors; }

private:
    QLabel* m_first_title;
    QLabel* m_second_title;
    TimelineWidget* m_first;
    TimelineWidget* m_second;
    PhaseErrorModel* m_errors;
    std::shared_ptr<const LoadedRun> m_runs[2];
};

}  // namespace dtsim::gui
