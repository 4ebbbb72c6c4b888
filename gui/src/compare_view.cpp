#include "compare_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "phase_error_model.hpp"
#include "timeline_view.hpp"
#include "timeline_widget.hpp"

namespace dtsim::gui {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_first_title(new QLabel(this)), m_second_title(new QLabel(this)), m_first(new TimelineWidget(this)),
      m_second(new TimelineWidget(this)), m_errors(new PhaseErrorModel(this)) {
    auto* table = new QTableView(this);
    table->setModel(m_errors);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->verticalHeader()->hide();
    table->setMaximumHeight(190);
    auto* top = new QHBoxLayout;
    top->addWidget(m_first_title, 1);
    top->addWidget(makeKindLegend(this));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_first, 1);
    layout->addWidget(m_second_title);
    layout->addWidget(m_second, 1);
    layout->addWidget(table);
    auto* totals = new QLabel(tr("Shift+drag on either timeline selects an area and shows its totals here"), this);
    totals->setWordWrap(true);
    layout->addWidget(totals);
    for (auto* timeline : {m_first, m_second}) connect(timeline, &TimelineWidget::selectionChanged, totals, &QLabel::setText);
    // One time axis: whichever timeline moves, the other follows.
    connect(m_first, &TimelineWidget::visibleRangeChanged, m_second, &TimelineWidget::setVisibleRange);
    connect(m_second, &TimelineWidget::visibleRangeChanged, m_first, &TimelineWidget::setVisibleRange);
}

void CompareView::showRuns(std::shared_ptr<const LoadedRun> first, std::shared_ptr<const LoadedRun> second) {
    m_runs[0] = std::move(first);
    m_runs[1] = std::move(second);
    if (!m_runs[0] || !m_runs[1]) {
        m_first_title->setText(tr("Select two runs in the browser (Ctrl+click) to compare them"));
        m_second_title->clear();
        m_first->setStore(nullptr);
        m_second->setStore(nullptr);
        m_errors->setComparison({}, {}, {});
        return;
    }
    const auto& a = m_runs[0]->run;
    const auto& b = m_runs[1]->run;
    m_first_title->setText(describeRun(a));
    m_second_title->setText(describeRun(b));
    const double extent = std::max(m_runs[0]->store->endTime(), m_runs[1]->store->endTime());
    m_first->setStore(m_runs[0]->store, extent);
    m_second->setStore(m_runs[1]->store, extent);
    m_errors->setComparison(compare_phases(a.summary, b.summary),
                            QStringLiteral("run %1 (%2)").arg(a.id).arg(QString::fromStdString(to_string(a.kind))),
                            QStringLiteral("run %1 (%2)").arg(b.id).arg(QString::fromStdString(to_string(b.kind))));
}

}  // namespace dtsim::gui
