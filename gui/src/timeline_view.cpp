#include "timeline_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "dtsim/units.hpp"
#include "kind_palette.hpp"
#include "timeline_widget.hpp"

namespace dtsim::gui {

QWidget* makeKindLegend(QWidget* parent) {
    auto* legend = new QWidget(parent);
    auto* layout = new QHBoxLayout(legend);
    layout->setContentsMargins(0, 0, 0, 0);
    for (size_t k = 0; k < kKindRgb.size(); ++k) {
        auto* swatch = new QLabel(legend);
        swatch->setFixedSize(14, 14);
        swatch->setStyleSheet(QStringLiteral("background:%1;").arg(QColor::fromRgb(kKindRgb[k]).name()));
        layout->addWidget(swatch);
        layout->addWidget(new QLabel(QString::fromLatin1(kKindNames[k]), legend));
    }
    layout->addStretch();
    return legend;
}

QString describeRun(const Run& run) {
    return QStringLiteral("run %1 — %2 (%3), %4, %5 GPUs, iteration %6")
        .arg(run.id)
        .arg(QString::fromStdString(run.scenario_name), QString::fromStdString(to_string(run.kind)),
             QString::fromStdString(run.strategy))
        .arg(run.summary.gpus)
        .arg(QString::fromStdString(format_seconds(run.summary.iteration_time_s)));
}

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_filter(new QLineEdit(this)), m_timeline(new TimelineWidget(this)),
      m_totals(new QLabel(this)) {
    m_filter->setPlaceholderText(tr("Lane filter (regular expression), e.g. gpu [0-7]$|server"));
    m_filter->setClearButtonEnabled(true);
    m_totals->setText(tr("Shift+drag selects an area · W/S or Ctrl+wheel zoom · A/D or drag pan · Home resets"));
    m_totals->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(makeKindLegend(this));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_filter);
    layout->addWidget(m_timeline, 1);
    layout->addWidget(m_totals);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        const bool valid = m_timeline->setLaneFilter(text);
        m_filter->setStyleSheet(valid ? QString() : QStringLiteral("color: #b00020;"));
    });
    connect(m_timeline, &TimelineWidget::selectionChanged, m_totals, &QLabel::setText);
}

void TimelineView::showRun(std::shared_ptr<const LoadedRun> run) {
    m_run = std::move(run);
    m_title->setText(m_run ? describeRun(m_run->run) : tr("No run selected"));
    m_timeline->setStore(m_run ? m_run->store : nullptr);
}

}  // namespace dtsim::gui
